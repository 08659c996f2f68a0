import { describe, expect, it } from "vitest";
import { storableText } from "./storable-text.js";

describe("storableText", () => {
  it("drops every NUL character and leaves any other text as it is", () => {
    expect(storableText("a\u0000b\u0000")).toBe("ab");
    expect(storableText("plain ✓ text")).toBe("plain ✓ text");
  });
});
