import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { maximumUpstreamErrorBodySize, readUpstreamErrorText } from "./read-upstream-error-text.js";

describe("readUpstreamErrorText", () => {
  it("reads a whole small body as UTF-8", async () => {
    const body = Readable.from([Buffer.from('{"error":{"message":"caf'), Buffer.from('é"}}')]);
    expect(await readUpstreamErrorText(body)).toBe('{"error":{"message":"café"}}');
  });

  it("stops at the limit and drops the rest of the body", async () => {
    let produced = 0;
    const body = new Readable({
      read() {
        produced += 1;
        this.push(Buffer.alloc(10, "a"));
      },
    });
    expect(await readUpstreamErrorText(body, 25)).toBe("a".repeat(25));
    expect(body.destroyed).toBe(true);
    expect(produced).toBeLessThan(10);
    expect(maximumUpstreamErrorBodySize).toBe(64 * 1024);
  });

  it("returns what arrived when the body breaks off", async () => {
    const body = new Readable({ read() {} });
    body.push(Buffer.from("partial message"));
    setTimeout(() => body.destroy(new Error("socket hang up")), 5);
    expect(await readUpstreamErrorText(body)).toBe("partial message");
  });
});
