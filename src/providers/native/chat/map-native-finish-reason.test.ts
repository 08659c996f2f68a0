import { describe, expect, it } from "vitest";
import { mapNativeFinishReason } from "./map-native-finish-reason.js";

describe("mapNativeFinishReason", () => {
  it.each([
    ["STOP", "stop"],
    ["MAX_TOKENS", "length"],
    ["SAFETY", "content_filter"],
    ["RECITATION", "content_filter"],
    ["BLOCKLIST", "content_filter"],
    ["PROHIBITED_CONTENT", "content_filter"],
    ["SPII", "content_filter"],
    ["IMAGE_SAFETY", "content_filter"],
    ["IMAGE_PROHIBITED_CONTENT", "content_filter"],
    ["OTHER", "stop"],
    ["MALFORMED_FUNCTION_CALL", "stop"],
  ])("%s → %s", (native, openai) => {
    expect(mapNativeFinishReason(native, { hasToolCalls: false })).toBe(openai);
  });

  it("answers tool_calls whenever the candidate called a function", () => {
    expect(mapNativeFinishReason("STOP", { hasToolCalls: true })).toBe("tool_calls");
    expect(mapNativeFinishReason("MAX_TOKENS", { hasToolCalls: true })).toBe("tool_calls");
  });

  it("keeps null for a fragment that has not finished", () => {
    expect(mapNativeFinishReason(undefined, { hasToolCalls: false })).toBeNull();
  });
});
