import { describe, expect, it } from "vitest";
import { InvalidRequestError, InvalidSearchPatternError } from "../errors/gateway-error.js";
import { buildKeySearchMatcher } from "./build-key-search-matcher.js";

const key = "AbCdEfGh1234wxyzQRST5678mnopUVWX9012ijklYZab3456";

describe("buildKeySearchMatcher", () => {
  it("without a wildcard matches any substring of the key", () => {
    expect(buildKeySearchMatcher("AbCd")(key)).toBe(true);
    expect(buildKeySearchMatcher("1234wxyz")(key)).toBe(true);
    expect(buildKeySearchMatcher("3456")(key)).toBe(true);
    expect(buildKeySearchMatcher(key)(key)).toBe(true);
    expect(buildKeySearchMatcher("1234wxyq")(key)).toBe(false);
    expect(buildKeySearchMatcher(`${key}0`)(key)).toBe(false);
  });

  it("accepts the sk- prefix and surrounding whitespace", () => {
    expect(buildKeySearchMatcher("sk-AbCd")(key)).toBe(true);
    expect(buildKeySearchMatcher(`  sk-${key} `)(key)).toBe(true);
    // Only a leading sk- is the prefix; elsewhere it is part of the pattern.
    expect(buildKeySearchMatcher("AbCdsk-")(key)).toBe(false);
  });

  it("is case-sensitive", () => {
    expect(buildKeySearchMatcher("abcd")(key)).toBe(false);
    expect(buildKeySearchMatcher("ABCD")(key)).toBe(false);
    expect(buildKeySearchMatcher("AbCd")("abcd")).toBe(false);
  });

  it("with one wildcard needs both pieces in order, anywhere in the key", () => {
    expect(buildKeySearchMatcher("AbCd%3456")(key)).toBe(true);
    expect(buildKeySearchMatcher("1234%5678")(key)).toBe(true);
    expect(buildKeySearchMatcher("5678%1234")(key)).toBe(false);
    expect(buildKeySearchMatcher("sk-AbCd%YZab")(key)).toBe(true);
    expect(buildKeySearchMatcher("AbCd%")(key)).toBe(true);
    expect(buildKeySearchMatcher("%3456")(key)).toBe(true);
  });

  it("does not let pieces overlap", () => {
    expect(buildKeySearchMatcher("aba%aba")("ababa")).toBe(false);
    expect(buildKeySearchMatcher("aba%aba")("abaaba")).toBe(true);
    expect(buildKeySearchMatcher("ab%b")("ab")).toBe(false);
  });

  it("with two wildcards needs three pieces in order", () => {
    expect(buildKeySearchMatcher("AbCd%QRST%3456")(key)).toBe(true);
    expect(buildKeySearchMatcher("AbCd%3456%QRST")(key)).toBe(false);
    expect(buildKeySearchMatcher("%%")(key)).toBe(true);
    expect(buildKeySearchMatcher("%QRST%")(key)).toBe(true);
  });

  it("matches every key for an empty or wildcard-only pattern", () => {
    expect(buildKeySearchMatcher("")(key)).toBe(true);
    expect(buildKeySearchMatcher("sk-")(key)).toBe(true);
    expect(buildKeySearchMatcher("%")("")).toBe(true);
  });

  it("rejects three or more wildcards with a typed 400 error", () => {
    expect(() => buildKeySearchMatcher("a%b%c%d")).toThrow(InvalidSearchPatternError);
    expect(() => buildKeySearchMatcher("%%%")).toThrow("the token search pattern may contain at most 2 % wildcards");
    try {
      buildKeySearchMatcher("%%%");
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect((error as InvalidRequestError).status).toBe(400);
    }
  });

  it("treats regular-expression and LIKE characters literally", () => {
    expect(buildKeySearchMatcher(".*")("abc")).toBe(false);
    expect(buildKeySearchMatcher(".*")("a.*b")).toBe(true);
    expect(buildKeySearchMatcher("a_c")("abc")).toBe(false);
    expect(buildKeySearchMatcher("(a")("x(ay")).toBe(true);
  });
});
