import type { RequestHandler } from "express";
import { AuthenticationError, InsufficientQuotaError, PermissionError } from "../errors/gateway-error.js";
import type { GatewayContext } from "../gateway-context.js";
import type { ApiGeneration } from "../http/api-generation.js";
import { stripKeyPrefix } from "../keys/strip-key-prefix.js";
import { findTokenAndOwnerByKeyHash } from "../store/tokens/find-token-and-owner-by-key-hash.js";
import { updateTokenStatus } from "../store/tokens/update-token-status.js";
import { setAuthenticatedToken } from "../users/authenticated-request.js";
import { apiKeyMessages } from "./api-key-messages.js";
import { createAllowListCache } from "./create-allow-list-cache.js";
import { memoizeRecent } from "../cache/memoize-recent.js";
import { extractApiKey } from "./extract-api-key.js";
import { isIpAllowed } from "./ip/is-ip-allowed.js";
import { resolveClientIp } from "./ip/resolve-client-ip.js";

const keyBodyPattern = /^[A-Za-z0-9]{48}$/;
const tokenStatus = { enabled: 1, disabled: 2, expired: 3, exhausted: 4 } as const;

/**
 * `/v1` and `/v1beta` authentication by API key: the token must exist, be enabled, not expired (found past its
 * expiry it moves to status 3), have quota (or be unlimited) and accept the caller's IP. Model limits are checked
 * by the relay, which knows the model.
 */
export function createApiKeyAuthenticator(context: GatewayContext, generation: ApiGeneration): RequestHandler {
  const allowListFor = createAllowListCache();
  const keyHashOf = memoizeRecent((keyBody: string) => context.keyCipher.hash(keyBody), 10_000);
  return async (request, response, next) => {
    const presented = extractApiKey(request, generation);
    if (!presented)
      throw new AuthenticationError(
        generation === "native"
          ? apiKeyMessages.missingNative
          : generation === "anthropic"
            ? apiKeyMessages.missingAnthropic
            : apiKeyMessages.missing,
      );
    const keyBody = stripKeyPrefix(presented);
    if (!keyBodyPattern.test(keyBody)) throw new AuthenticationError(apiKeyMessages.invalid);
    const keyHash = keyHashOf(keyBody);
    const found = await context.tokenCache.get(keyHash, () => findTokenAndOwnerByKeyHash(context.database.db, keyHash));
    if (!found) throw new AuthenticationError(apiKeyMessages.invalid);
    const { token } = found;
    if (found.ownerStatus !== 1) throw new PermissionError(apiKeyMessages.ownerDisabled, { code: "user_disabled" });

    const now = context.now();
    if (token.status === tokenStatus.disabled)
      throw new PermissionError(apiKeyMessages.disabled, { code: "token_disabled" });
    if (token.status === tokenStatus.expired || (token.expiredTime !== -1 && token.expiredTime <= now)) {
      if (token.status !== tokenStatus.expired) {
        await updateTokenStatus(context.database.db, token.id, tokenStatus.expired, { onlyFromStatus: token.status });
        context.tokenCache.invalidateToken(token.id);
      }
      // The image document: an invalid or expired key is 401 `invalid_authentication` on the image endpoints.
      if (request.originalUrl.startsWith("/v1/images/")) throw new AuthenticationError(apiKeyMessages.expired);
      throw new PermissionError(apiKeyMessages.expired, { code: "token_expired" });
    }
    if (token.status === tokenStatus.exhausted || (!token.unlimitedQuota && token.remainQuota <= 0)) {
      throw new InsufficientQuotaError(apiKeyMessages.exhausted);
    }
    const clientIp = resolveClientIp(
      request.socket.remoteAddress ?? "",
      request.headers["x-forwarded-for"] as string | undefined,
      context.trustedProxies,
    );
    if (token.allowIps && !isIpAllowed(allowListFor(token.allowIps), clientIp)) {
      throw new PermissionError(apiKeyMessages.ipNotAllowed(clientIp), { code: "ip_not_allowed" });
    }
    context.accessTimeRecorder.record(token.id, now);
    setAuthenticatedToken(response, token, clientIp, {
      group: found.ownerGroup,
      allowedGroups: found.ownerAllowedGroups,
      role: found.ownerRole,
      walletUnlimited: found.ownerWalletUnlimited,
    });
    next();
  };
}
