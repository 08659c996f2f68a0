import { describe, expect, it } from "vitest";
import { attachThoughtSignature, splitToolCallId } from "./thought-signatures.js";

describe("thought signatures in tool call ids", () => {
  it("round-trips a base64 signature unchanged", () => {
    const signature = "CqYCAcu98PBq7eXhQ0YpLw3ZFAhC2xQk9RCHr4vQkRkCuMVOsJ3S9RfoP0Q0zAF1Bl2fXg==";
    const id = attachThoughtSignature("call_abc", signature);
    expect(id).toBe(`call_abc__thought__${signature}`);
    expect(splitToolCallId(id)).toEqual({ id: "call_abc", thoughtSignature: signature });
  });

  it("leaves ids without a signature alone, both ways", () => {
    expect(attachThoughtSignature("call_abc", undefined)).toBe("call_abc");
    expect(attachThoughtSignature("call_abc", "")).toBe("call_abc");
    expect(splitToolCallId("call_abc")).toEqual({ id: "call_abc" });
    expect(splitToolCallId("call_abc__thought__")).toEqual({ id: "call_abc" });
  });
});
