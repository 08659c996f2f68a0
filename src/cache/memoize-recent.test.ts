import { describe, expect, it } from "vitest";
import { memoizeRecent } from "./memoize-recent.js";

describe("memoizeRecent", () => {
  it("hashes a key once while it stays among the most recent entries, and forgets the oldest beyond the bound", () => {
    const hashed: string[] = [];
    const hashOf = memoizeRecent((key) => {
      hashed.push(key);
      return `h(${key})`;
    }, 2);
    expect([hashOf("a"), hashOf("a"), hashOf("b"), hashOf("a")]).toEqual(["h(a)", "h(a)", "h(b)", "h(a)"]);
    expect(hashed).toEqual(["a", "b"]);
    hashOf("c"); // evicts "a", the oldest
    hashOf("a");
    expect(hashed).toEqual(["a", "b", "c", "a"]);
  });

  it("remembers an undefined result too (an address that does not parse)", () => {
    let calls = 0;
    const parse = memoizeRecent((text) => {
      calls += 1;
      return text.includes(".") ? text : undefined;
    }, 10);
    expect([parse("junk"), parse("junk"), parse("1.2.3.4")]).toEqual([undefined, undefined, "1.2.3.4"]);
    expect(calls).toBe(2);
  });
});
