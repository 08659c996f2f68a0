import { describe, expect, it } from "vitest";
import { InvalidSearchPatternError } from "../errors/gateway-error.js";
import { buildKeySearchLikePattern } from "./build-key-search-like-pattern.js";

describe("buildKeySearchLikePattern", () => {
  it("surrounds the pieces with % and strips sk-", () => {
    expect(buildKeySearchLikePattern("sk-AbCd").pattern).toBe("%AbCd%");
    expect(buildKeySearchLikePattern("AbCd%3456").pattern).toBe("%AbCd%3456%");
    expect(buildKeySearchLikePattern("%a%").pattern).toBe("%a%");
    expect(buildKeySearchLikePattern("").pattern).toBe("%%");
  });

  it("escapes LIKE metacharacters other than %", () => {
    expect(buildKeySearchLikePattern("a_b\\c")).toEqual({ pattern: "%a\\_b\\\\c%", escape: "\\" });
  });

  it("rejects more than 2 wildcards like the matcher", () => {
    expect(() => buildKeySearchLikePattern("a%b%c%")).toThrow(InvalidSearchPatternError);
  });
});
