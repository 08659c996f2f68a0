import { InvalidRequestError, NotFoundError } from "../errors/gateway-error.js";
import type { GatewayContext } from "../gateway-context.js";
import { findTokenByIdForUser } from "../store/tokens/find-token-by-id-for-user.js";
import { updateToken, type TokenPatch } from "../store/tokens/update-token.js";
import type { TokenRecord } from "../store/tokens/token-record.js";
import type { UserRecord } from "../store/users/user-record.js";
import { assertTokenGroupAllowed } from "../users/usable-groups.js";
import type { UpdateTokenRequest } from "./management-types.js";
import { maximumTokenNameLength, tokenMessages } from "./token-messages.js";
import { toTokenFieldPatch } from "./to-token-field-patch.js";

const enabled = 1;
const exhausted = 4;

/**
 * PUT /api/token/: any creation field plus status; with status_only only the status moves. Enabling is refused
 * while the expiry (after this update) is still in the past, as the product documents' token state table says,
 * and a token marked exhausted (4) stays so while its quota is used up.
 */
export async function updateUserToken(
  context: GatewayContext,
  user: UserRecord,
  request: UpdateTokenRequest,
  statusOnly: boolean,
): Promise<TokenRecord> {
  const current = await findTokenByIdForUser(context.database.db, request.id, user.id);
  if (!current) throw new NotFoundError(tokenMessages.notFound);

  if (statusOnly && request.status === undefined)
    throw new InvalidRequestError(tokenMessages.statusRequired, { param: "status" });
  let patch: TokenPatch = {};
  if (!statusOnly) {
    if (request.name !== undefined) {
      if ([...request.name].length > maximumTokenNameLength)
        throw new InvalidRequestError(tokenMessages.nameTooLong, { param: "name" });
      patch.name = request.name;
    }
    patch = { ...patch, ...toTokenFieldPatch(request) };
    // A form sent back whole keeps its group even if the owner may no longer pick it (routing refuses it then).
    if (patch.group !== undefined && patch.group !== current.group)
      assertTokenGroupAllowed(user, patch.group, context.config);
  }
  if (request.status !== undefined) patch.status = request.status;

  const after = { ...current, ...patch };
  if (patch.status === enabled) {
    if (after.expiredTime !== -1 && after.expiredTime <= context.now()) {
      throw new InvalidRequestError(tokenMessages.expiredCannotEnable, { param: "status", code: "token_expired" });
    }
    // Only a token the gateway marked exhausted is held back (as new-api does): any other token may be enabled
    // whatever its quota, as the product documents' token state table says; requests are still refused with 402
    // while it has none.
    if (current.status === exhausted && !after.unlimitedQuota && after.remainQuota <= 0) {
      throw new InvalidRequestError(tokenMessages.exhaustedCannotEnable, {
        param: "status",
        code: "token_quota_exhausted",
      });
    }
  }
  const updated = await updateToken(context.database.db, current.id, user.id, patch);
  if (!updated) throw new NotFoundError(tokenMessages.notFound);
  return updated;
}
