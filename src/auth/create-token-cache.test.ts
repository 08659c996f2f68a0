import { describe, expect, it, vi } from "vitest";
import type { TokenWithOwner } from "../store/tokens/find-token-and-owner-by-key-hash.js";
import { createTokenCache } from "./create-token-cache.js";

const tokenWithOwner = (id: number) =>
  ({ token: { id }, ownerGroup: "default", ownerStatus: 1 }) as unknown as TokenWithOwner;

describe("createTokenCache", () => {
  it("loads once within the TTL, again after it, and at once after an invalidation", async () => {
    let now = 0;
    const cache = createTokenCache({ ttlMs: 1000, maximumEntries: 10, nowMs: () => now });
    const load = vi.fn(async () => tokenWithOwner(7));
    await cache.get("hash-7", load);
    await cache.get("hash-7", load);
    expect(load).toHaveBeenCalledTimes(1);
    now = 1001;
    await cache.get("hash-7", load);
    expect(load).toHaveBeenCalledTimes(2);
    cache.invalidateToken(7);
    await cache.get("hash-7", load);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it("never keeps a miss, keeps at most the maximum, and with a TTL of 0 always loads", async () => {
    const cache = createTokenCache({ ttlMs: 1000, maximumEntries: 2, nowMs: () => 0 });
    const miss = vi.fn(async () => null);
    await cache.get("nope", miss);
    await cache.get("nope", miss);
    expect(miss).toHaveBeenCalledTimes(2);
    const loads = [1, 2, 3].map((id) => vi.fn(async () => tokenWithOwner(id)));
    for (const [index, load] of loads.entries()) await cache.get(`hash-${index}`, load);
    await cache.get("hash-0", loads[0]!);
    expect(loads[0]).toHaveBeenCalledTimes(2);

    const uncached = createTokenCache({ ttlMs: 0, maximumEntries: 2 });
    const load = vi.fn(async () => tokenWithOwner(9));
    await uncached.get("h", load);
    await uncached.get("h", load);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
