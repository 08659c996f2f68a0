import { describe, expect, it } from "vitest";
import { createRequestId, requestIdsFrom } from "./create-request-id.js";

describe("createRequestId", () => {
  it("is req_ and 32 hex digits, the first 12 the creation time in milliseconds", () => {
    const id = createRequestId(Date.UTC(2026, 10, 22));
    expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(Number.parseInt(id.slice(4, 16), 16)).toBe(Date.UTC(2026, 10, 22));
  });

  it("sorts by creation time and does not repeat within a millisecond", () => {
    const earlier = Array.from({ length: 1000 }, () => createRequestId(1_000));
    const later = createRequestId(1_001);
    expect(new Set(earlier).size).toBe(1000);
    expect(earlier.every((id) => id < later)).toBe(true);
  });

  it("bounds the ids of a millisecond: all earlier ones sort below it, that one's and later ones above", () => {
    const bound = requestIdsFrom(Date.UTC(2026, 10, 28));
    expect(createRequestId(Date.UTC(2026, 10, 28) - 1) < bound).toBe(true);
    expect(createRequestId(Date.UTC(2026, 10, 28)) > bound).toBe(true);
    expect(createRequestId(Date.UTC(2027, 0, 1)) > bound).toBe(true);
  });
});
