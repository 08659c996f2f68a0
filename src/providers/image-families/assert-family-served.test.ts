import { describe, expect, it } from "vitest";
import { UpstreamFailure } from "../../upstream/upstream-failure.js";
import { assertFamilyServed } from "./assert-family-served.js";

describe("assertFamilyServed", () => {
  it("lets a family through on a channel whose protocol speaks it", () => {
    expect(() => assertFamilyServed("img-b-pro", ["img-b", "img-b-pro"], "ark")).not.toThrow();
  });

  it("fails over (retryable 503 bad_response) when an operator listed the model on another protocol's channel", () => {
    let caught: unknown;
    try {
      assertFamilyServed("img-d", ["gmx"], "native");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UpstreamFailure);
    expect(caught).toMatchObject({ status: 503, code: "bad_response", retryable: true });
    expect((caught as Error).message).toMatch(/native channel cannot serve the img-d image family/);
  });
});
