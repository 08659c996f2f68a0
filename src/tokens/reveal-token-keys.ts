import { RateLimiterRes } from "rate-limiter-flexible";
import { RateLimitError } from "../errors/gateway-error.js";
import type { GatewayContext } from "../gateway-context.js";
import { findTokenByIdForUser } from "../store/tokens/find-token-by-id-for-user.js";
import type { UserRecord } from "../store/users/user-record.js";

/** Both key endpoints draw on one per-user budget: revealing keys is what an attacker with a user token wants. */
export async function consumeKeyRevealBudget(context: GatewayContext, user: UserRecord): Promise<void> {
  try {
    await context.keyRevealLimiter.consume(String(user.id));
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    const retryAfterSeconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    throw new RateLimitError(`Too many key retrievals, retry in ${retryAfterSeconds} seconds.`, { retryAfterSeconds });
  }
}

/** Full keys (without `sk-`) of the user's tokens among `ids`, keyed by id as a string; unknown ids are left out. */
export async function revealTokenKeys(
  context: GatewayContext,
  user: UserRecord,
  ids: readonly number[],
): Promise<Record<string, string>> {
  const keys: Record<string, string> = {};
  for (const id of new Set(ids)) {
    const token = await findTokenByIdForUser(context.database.db, id, user.id);
    if (token) keys[String(id)] = context.keyCipher.decrypt(token.keyEncrypted);
  }
  return keys;
}
