import { randomBytes } from "node:crypto";
import type { GatewayContext } from "../gateway-context.js";
import { upsertWebhookSecret } from "../store/webhook-secrets/upsert-webhook-secret.js";
import type { UserRecord } from "../store/users/user-record.js";
import { consumeKeyRevealBudget } from "../tokens/reveal-token-keys.js";

/**
 * Creates or replaces the user's callback signing secret (`whsec_` + 256 random bits, base64url) and returns it: the
 * only time it is shown. Stored encrypted like API keys, so a database dump alone cannot forge callbacks. Draws on the
 * key retrieval budget: handing out secrets is what a stolen user token is after.
 */
export async function rotateWebhookSecret(context: GatewayContext, user: UserRecord): Promise<string> {
  await consumeKeyRevealBudget(context, user);
  const secret = `whsec_${randomBytes(32).toString("base64url")}`;
  await upsertWebhookSecret(context.database.db, {
    userId: user.id,
    secretEncrypted: context.keyCipher.encrypt(secret),
    now: context.now(),
  });
  return secret;
}
