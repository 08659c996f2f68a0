import { describe, expect, it } from "vitest";
import { createKeyHashMemo } from "./create-key-hash-memo.js";

describe("createKeyHashMemo", () => {
  it("hashes a key once while it stays among the most recent entries, and forgets the oldest beyond the bound", () => {
    const hashed: string[] = [];
    const hashOf = createKeyHashMemo((key) => {
      hashed.push(key);
      return `h(${key})`;
    }, 2);
    expect([hashOf("a"), hashOf("a"), hashOf("b"), hashOf("a")]).toEqual(["h(a)", "h(a)", "h(b)", "h(a)"]);
    expect(hashed).toEqual(["a", "b"]);
    hashOf("c"); // evicts "a", the oldest
    hashOf("a");
    expect(hashed).toEqual(["a", "b", "c", "a"]);
  });
});
