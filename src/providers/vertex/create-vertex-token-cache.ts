import { createHash } from "node:crypto";
import { type AccessToken, exchangeServiceAccountToken } from "./exchange-service-account-token.js";
import { readServiceAccount } from "./read-service-account.js";

/** How long before its expiry a token is replaced, so a request never goes out with one about to lapse. */
export const tokenRefreshMarginMs = 5 * 60_000;

export interface VertexTokenCache {
  /** The access token of a service account key: cached, or exchanged (once, however many requests ask at once). */
  get(key: string, options?: { refresh?: boolean }): Promise<string>;
  clear(): void;
}

/**
 * Access tokens per service account key, kept until shortly before they expire. A refresh (after a 401) replaces
 * the cached token unless another request already replaced it. Keys are held by their SHA-256, the tokens only here.
 */
export function createVertexTokenCache(options: { now?: () => number; timeoutMs?: number } = {}): VertexTokenCache {
  const now = options.now ?? Date.now;
  const tokens = new Map<string, AccessToken>();
  const pending = new Map<string, Promise<AccessToken>>();
  return {
    async get(key, { refresh = false } = {}) {
      const id = createHash("sha256").update(key).digest("hex");
      const cached = tokens.get(id);
      if (!refresh && cached && cached.expiresAt - tokenRefreshMarginMs > now()) return cached.token;
      let exchange = pending.get(id);
      if (!exchange) {
        exchange = exchangeServiceAccountToken(readServiceAccount(key), {
          now: now(),
          timeoutMs: options.timeoutMs ?? 30_000,
        });
        pending.set(id, exchange);
        exchange.then(
          (token) => {
            tokens.set(id, token);
            pending.delete(id);
          },
          () => pending.delete(id),
        );
      }
      return (await exchange).token;
    },
    clear() {
      tokens.clear();
      pending.clear();
    },
  };
}

/** The gateway's one cache (a process holds one token per service account, shared by its channels). */
export const vertexTokens = createVertexTokenCache();
