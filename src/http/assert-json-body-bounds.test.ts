import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../errors/gateway-error.js";
import { assertJsonBodyBounds, maximumJsonValueCount } from "./assert-json-body-bounds.js";

const maximumJsonNestingDepth = 64;

const nested = (depth: number) => Buffer.from(`${"[".repeat(depth)}${"]".repeat(depth)}`);

describe("assertJsonBodyBounds", () => {
  it("accepts the limit and refuses one level more", () => {
    expect(() => assertJsonBodyBounds(nested(maximumJsonNestingDepth))).not.toThrow();
    expect(() => assertJsonBodyBounds(nested(maximumJsonNestingDepth + 1))).toThrow(InvalidRequestError);
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    const text = JSON.stringify({ text: `\\"${"{".repeat(500)}`, list: [[1]] });
    expect(() => assertJsonBodyBounds(Buffer.from(text))).not.toThrow();
  });

  it("refuses 10,000 levels without recursion", () => {
    expect(() => assertJsonBodyBounds(Buffer.from(`{"x":${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}}`))).toThrow(
      /at most 64 levels/,
    );
  });

  it("accepts the value count limit and refuses one more, without counting commas inside strings", () => {
    const values = (count: number) => Buffer.from(`{"input":[${Array(count).fill("1").join(",")}]}`);
    expect(() => assertJsonBodyBounds(values(maximumJsonValueCount))).not.toThrow();
    expect(() => assertJsonBodyBounds(values(maximumJsonValueCount + 1))).toThrow(/at most 1000000 in all/);
    const text = Buffer.from(JSON.stringify({ text: ",".repeat(maximumJsonValueCount * 2) }));
    expect(() => assertJsonBodyBounds(text)).not.toThrow();
  });
});
