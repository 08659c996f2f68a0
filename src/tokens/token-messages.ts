// Messages the management API documents; clients and tests match on them, so they live in one place.
export const tokenMessages = {
  nameTooLong: "name too long: a token name may have at most 30 characters",
  notFound: "Token does not exist.",
  expiredCannotEnable:
    "The token has expired and cannot be enabled: change its expiry time or set it to never expire (-1).",
  exhaustedCannotEnable:
    "The token's quota is used up and it cannot be enabled: raise remain_quota or make the quota unlimited.",
  statusRequired: "status is required when status_only is true",
  idsRequired: "Parameter error: ids must be a non-empty array of token ids.",
  listFailed: "Failed to fetch the token list.",
  searchFailed: "Token search failed.",
  tooManyTokens: (limit: number, held: number, requested: number) =>
    `A user may hold at most ${limit} tokens; you hold ${held} and asked for ${requested} more. Delete tokens you no longer use first.`,
} as const;

export const maximumTokenNameLength = 30;
