import { InvalidRequestError } from "../errors/invalid-request-error.js";
import { NotFoundError } from "../errors/not-found-error.js";
import type { GatewayContext } from "../gateway-context.js";
import { findTokenByIdForUser } from "../store/tokens/find-token-by-id-for-user.js";
import { updateToken, type TokenPatch } from "../store/tokens/update-token.js";
import type { TokenRecord } from "../store/tokens/token-record.js";
import type { UserRecord } from "../store/users/user-record.js";
import type { UpdateTokenRequest } from "./management-types.js";
import { maximumTokenNameLength, tokenMessages } from "./token-messages.js";
import { toTokenFieldPatch } from "./to-token-field-patch.js";

const enabled = 1;

/**
 * PUT /api/token/: any creation field plus status; with status_only only the status moves. Enabling is refused
 * while the expiry (after this update) is still in the past, as the seed's state table says, and while the
 * quota is used up.
 */
export async function updateUserToken(
  context: GatewayContext,
  user: UserRecord,
  request: UpdateTokenRequest,
  statusOnly: boolean,
): Promise<TokenRecord> {
  const current = await findTokenByIdForUser(context.database.db, request.id, user.id);
  if (!current) throw new NotFoundError(tokenMessages.notFound);

  let patch: TokenPatch = {};
  if (!statusOnly) {
    if (request.name !== undefined) {
      if ([...request.name].length > maximumTokenNameLength) throw new InvalidRequestError(tokenMessages.nameTooLong, { param: "name" });
      patch.name = request.name;
    }
    patch = { ...patch, ...toTokenFieldPatch(request) };
  }
  if (request.status !== undefined) patch.status = request.status;

  const after = { ...current, ...patch };
  if (patch.status === enabled) {
    if (after.expiredTime !== -1 && after.expiredTime <= context.now()) {
      throw new InvalidRequestError(tokenMessages.expiredCannotEnable, { param: "status", code: "token_expired" });
    }
    if (!after.unlimitedQuota && after.remainQuota <= 0) {
      throw new InvalidRequestError(tokenMessages.exhaustedCannotEnable, { param: "status", code: "token_quota_exhausted" });
    }
  }
  const updated = await updateToken(context.database.db, current.id, user.id, patch);
  if (!updated) throw new NotFoundError(tokenMessages.notFound);
  return updated;
}
