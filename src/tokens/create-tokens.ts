import { InvalidRequestError } from "../errors/gateway-error.js";
import type { GatewayContext } from "../gateway-context.js";
import { generateApiKey } from "../keys/generate-api-key.js";
import { stripKeyPrefix } from "../keys/strip-key-prefix.js";
import { insertTokensWithinLimit } from "../store/tokens/insert-tokens-within-limit.js";
import type { UserRecord } from "../store/users/user-record.js";
import { assertTokenGroupAllowed } from "../users/usable-groups.js";
import type { CreateTokenRequest } from "./management-types.js";
import { maximumTokenNameLength, tokenMessages } from "./token-messages.js";
import { toTokenFieldPatch } from "./to-token-field-patch.js";

/**
 * Creates one token, or `count` tokens named `<name>-1` … `<name>-<count>` in one statement (our design for the
 * batch creation the product documents mention without showing). The reply never carries a key. A user holds at most
 * `tokenLimitPerUser` tokens: without a cap one user could create tokens without end, and every key search
 * decrypts all of a user's keys.
 */
export async function createTokens(
  context: GatewayContext,
  user: UserRecord,
  request: CreateTokenRequest,
): Promise<number> {
  const count = request.count ?? 1;
  const names =
    count === 1 ? [request.name] : Array.from({ length: count }, (_, index) => `${request.name}-${index + 1}`);
  if (names.some((name) => [...name].length > maximumTokenNameLength)) {
    throw new InvalidRequestError(tokenMessages.nameTooLong, { param: "name" });
  }
  const fields = toTokenFieldPatch(request);
  if (fields.group !== undefined) assertTokenGroupAllowed(user, fields.group, context.config);
  const now = context.now();
  const rows = names.map((name) => {
    const key = stripKeyPrefix(generateApiKey());
    return {
      userId: user.id,
      name,
      keyHash: context.keyCipher.hash(key),
      keyEncrypted: context.keyCipher.encrypt(key),
      remainQuota: fields.remainQuota ?? 0,
      unlimitedQuota: fields.unlimitedQuota ?? false,
      modelLimitsEnabled: fields.modelLimitsEnabled ?? false,
      modelLimits: fields.modelLimits ?? "",
      allowIps: fields.allowIps ?? "",
      group: fields.group ?? user.group,
      crossGroupRetry: fields.crossGroupRetry ?? false,
      rpmLimit: fields.rpmLimit ?? 0,
      tpmLimit: fields.tpmLimit ?? 0,
      expiredTime: fields.expiredTime ?? -1,
      createdTime: now,
      accessedTime: now,
    };
  });
  const limit = context.config.tokenLimitPerUser;
  const result = await insertTokensWithinLimit(context.database.db, context.database.dialect, user.id, rows, limit);
  if ("refused" in result) {
    throw new InvalidRequestError(tokenMessages.tooManyTokens(limit, result.held, rows.length), {
      param: count === 1 ? "name" : "count",
      code: "token_limit_reached",
    });
  }
  return result.inserted.length;
}
