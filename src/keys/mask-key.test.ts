import { describe, expect, it } from "vitest";
import { generateApiKey } from "./generate-api-key.js";
import { maskKey } from "./mask-key.js";
import { stripKeyPrefix } from "./strip-key-prefix.js";

describe("maskKey", () => {
  it("keeps the first and last 4 characters around 10 asterisks", () => {
    expect(maskKey("abcdEFGHijklMNOPqrstUVWXyz0123456789ABCDEFGHwxyz")).toBe("abcd**********wxyz");
  });

  it("uses the same number of asterisks whatever the length", () => {
    expect(maskKey("abcde12345")).toBe("abcd**********2345");
    expect(maskKey("123456789")).toBe("1234**********6789");
    const masked = maskKey(stripKeyPrefix(generateApiKey()));
    expect(masked).toMatch(/^[A-Za-z0-9]{4}\*{10}[A-Za-z0-9]{4}$/);
  });

  it("hides short keys entirely", () => {
    expect(maskKey("12345678")).toBe("**********");
    expect(maskKey("a")).toBe("**********");
    expect(maskKey("")).toBe("");
  });
});
