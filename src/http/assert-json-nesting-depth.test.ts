import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../errors/invalid-request-error.js";
import { assertJsonNestingDepth } from "./assert-json-nesting-depth.js";

const maximumJsonNestingDepth = 64;

const nested = (depth: number) => Buffer.from(`${"[".repeat(depth)}${"]".repeat(depth)}`);

describe("assertJsonNestingDepth", () => {
  it("accepts the limit and refuses one level more", () => {
    expect(() => assertJsonNestingDepth(nested(maximumJsonNestingDepth))).not.toThrow();
    expect(() => assertJsonNestingDepth(nested(maximumJsonNestingDepth + 1))).toThrow(InvalidRequestError);
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    const text = JSON.stringify({ text: `\\"${"{".repeat(500)}`, list: [[1]] });
    expect(() => assertJsonNestingDepth(Buffer.from(text))).not.toThrow();
  });

  it("refuses 10,000 levels without recursion", () => {
    expect(() => assertJsonNestingDepth(Buffer.from(`{"x":${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}}`))).toThrow(
      /at most 64 levels/,
    );
  });
});
