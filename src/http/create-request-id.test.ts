import { describe, expect, it } from "vitest";
import { createRequestId } from "./create-request-id.js";

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
});
