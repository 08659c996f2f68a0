import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { parseSseTranscript } from "../shared/parse-sse-transcript.js";
import { createFixtureRecordings } from "./create-fixture-recordings.js";

const fixtureDirectory = new URL("./__fixtures__/", import.meta.url);

describe("__fixtures__", () => {
  it("match what the fake produces now (regenerate with record-fixtures.ts)", async () => {
    for (const [file, content] of await createFixtureRecordings()) {
      expect(await readFile(new URL(file, fixtureDirectory), "utf8"), file).toBe(content);
    }
  });

  it("chat-stream.chunks.txt reassembles to chat.json's content", async () => {
    const chat = JSON.parse(await readFile(new URL("chat.json", fixtureDirectory), "utf8"));
    const events = parseSseTranscript(await readFile(new URL("chat-stream.chunks.txt", fixtureDirectory), "utf8"));
    const chunks = events.filter((event) => event.data !== "[DONE]").map((event) => JSON.parse(event.data));
    const content = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
    expect(content).toBe(chat.choices[0].message.content);
    expect(chunks.at(-1).usage).toEqual(chat.usage);
  });
});
