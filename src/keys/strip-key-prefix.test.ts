import { describe, expect, it } from "vitest";
import { stripKeyPrefix } from "./strip-key-prefix.js";

describe("stripKeyPrefix", () => {
  it("removes exactly one leading sk-", () => {
    expect(stripKeyPrefix("sk-abc")).toBe("abc");
    expect(stripKeyPrefix("sk-sk-abc")).toBe("sk-abc");
    expect(stripKeyPrefix("abc")).toBe("abc");
    expect(stripKeyPrefix("")).toBe("");
  });

  it("leaves look-alikes alone (keys are case-sensitive, unlike a character trim)", () => {
    expect(stripKeyPrefix("SK-abc")).toBe("SK-abc");
    expect(stripKeyPrefix("skabc")).toBe("skabc");
    expect(stripKeyPrefix("abc-sk")).toBe("abc-sk");
    expect(stripKeyPrefix("kabc")).toBe("kabc");
  });
});
