import { describe, expect, it } from "vitest";
import { parseBearerToken } from "./parse-api-key-header.js";

describe("parseBearerToken", () => {
  it("returns the token of a Bearer header, prefix included", () => {
    expect(parseBearerToken("Bearer sk-abc")).toBe("sk-abc");
  });

  it("accepts any case of the scheme and surrounding whitespace", () => {
    expect(parseBearerToken("bearer sk-abc")).toBe("sk-abc");
    expect(parseBearerToken("BEARER sk-abc")).toBe("sk-abc");
    expect(parseBearerToken("  Bearer   sk-abc  ")).toBe("sk-abc");
    expect(parseBearerToken("Bearer\tsk-abc")).toBe("sk-abc");
  });

  it.each([
    undefined,
    "",
    "   ",
    "Bearer",
    "Bearer   ",
    "Basic dXNlcjpwYXNz",
    "Bearersk-abc",
    "sk-abc",
    "Token sk-abc",
  ])("returns undefined for %j", (header) => {
    expect(parseBearerToken(header)).toBeUndefined();
  });
});
