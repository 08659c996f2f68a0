import type { TokenWithOwner } from "../store/tokens/find-token-and-owner-by-key-hash.js";

export interface TokenCache {
  /** The token of a key hash: from memory while fresh, else loaded (and kept when found). */
  get(keyHash: string, load: () => Promise<TokenWithOwner | null>): Promise<TokenWithOwner | null>;
  /** Forgets one token (after an update, delete or status change through this instance). */
  invalidateToken(tokenId: number): void;
  invalidateAll(): void;
}

/**
 * API key authentication looks the key up on every request; the benchmark's profile showed the query (through
 * Kysely) among the larger costs of the hot path. Tokens are kept for `ttlMs`: changes made through this instance
 * invalidate at once; changes made elsewhere (another instance, billing moving a token to status 4) are seen
 * within the TTL, and quota itself is never decided here: the reservation's conditional UPDATE is.
 */
export function createTokenCache(options: { ttlMs: number; maximumEntries: number; nowMs?: () => number }): TokenCache {
  const nowMs = options.nowMs ?? (() => performance.now());
  const entries = new Map<string, { value: TokenWithOwner; expiresAt: number }>();
  const keyHashByTokenId = new Map<number, string>();
  return {
    async get(keyHash, load) {
      if (options.ttlMs <= 0) return load();
      const entry = entries.get(keyHash);
      if (entry && entry.expiresAt > nowMs()) return entry.value;
      const value = await load();
      if (value) {
        if (entries.size >= options.maximumEntries) {
          const oldest = entries.keys().next().value as string;
          keyHashByTokenId.delete(entries.get(oldest)!.value.token.id);
          entries.delete(oldest);
        }
        entries.set(keyHash, { value, expiresAt: nowMs() + options.ttlMs });
        keyHashByTokenId.set(value.token.id, keyHash);
      } else {
        entries.delete(keyHash);
      }
      return value;
    },
    invalidateToken(tokenId) {
      const keyHash = keyHashByTokenId.get(tokenId);
      if (keyHash === undefined) return;
      entries.delete(keyHash);
      keyHashByTokenId.delete(tokenId);
    },
    invalidateAll() {
      entries.clear();
      keyHashByTokenId.clear();
    },
  };
}
