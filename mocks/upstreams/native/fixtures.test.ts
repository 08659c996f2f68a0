import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { createFixtureRecordings } from "./create-fixture-recordings.js";

describe("__fixtures__", () => {
  it("match what the fake answers today (regenerate with: npx tsx mocks/upstreams/native/record-fixtures.ts)", async () => {
    for (const [file, content] of await createFixtureRecordings()) {
      expect(await readFile(new URL(`./__fixtures__/${file}`, import.meta.url), "utf8"), file).toBe(content);
    }
  });

  it("SSE fixtures are CRLF-framed GenerateContentResponse fragments", async () => {
    const text = await readFile(new URL("./__fixtures__/stream-thinking.chunks.txt", import.meta.url), "utf8");
    const fragments = text
      .split("\r\n\r\n")
      .filter(Boolean)
      .map((event) => JSON.parse(event.replace(/^data: /, "")));
    expect(fragments[0].candidates[0].content.parts[0]).toEqual({ text: "Thinking", thought: true });
    expect(fragments.at(-1).candidates[0].finishReason).toBe("STOP");
  });
});
