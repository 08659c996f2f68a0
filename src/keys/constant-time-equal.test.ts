import { describe, expect, it } from "vitest";
import { constantTimeEqual } from "./constant-time-equal.js";

describe("constantTimeEqual", () => {
  it("is true only for identical strings", () => {
    expect(constantTimeEqual("abc", "abc")).toBe(true);
    expect(constantTimeEqual("", "")).toBe(true);
    expect(constantTimeEqual("abc", "abd")).toBe(false);
    expect(constantTimeEqual("abc", "ABC")).toBe(false);
  });

  it("is false for different lengths without throwing", () => {
    expect(constantTimeEqual("abc", "abcd")).toBe(false);
    expect(constantTimeEqual("", "a")).toBe(false);
  });

  it("compares by UTF-8 bytes", () => {
    expect(constantTimeEqual("é", "é")).toBe(true);
    expect(constantTimeEqual("é", "e\u0301")).toBe(false);
    expect(constantTimeEqual("é", "ab")).toBe(false);
  });
});
