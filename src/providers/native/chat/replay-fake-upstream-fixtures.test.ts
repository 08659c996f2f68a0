import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { convertNativeResponseToChat } from "./convert-native-response-to-chat.js";
import { createOpenaiSchemaValidator } from "../../../../test/support/create-openai-schema-validator.js";
import { runNativeChatStream } from "../../../../test/support/run-native-chat-stream.js";

// The fake native upstream's own recordings (mocks/upstreams/native/__fixtures__): the converters must read what the
// relay will really receive in integration tests, not only our hand-written bodies.
const fakeFixture = (name: string) =>
  readFileSync(new URL(`../../../../mocks/upstreams/native/__fixtures__/${name}`, import.meta.url));
const validate = createOpenaiSchemaValidator();

describe("fake native upstream recordings", () => {
  it.each([
    ["generate-text.json", false],
    ["generate-thinking.json", true],
    ["generate-function-call.json", false],
    ["generate-image.json", false],
  ] as const)("%s converts to a valid chat completion", async (name, includeThoughts) => {
    const converted = convertNativeResponseToChat(JSON.parse(fakeFixture(name).toString("utf8")), {
      model: "gmx-2.5-flash",
      includeThoughts,
      created: 1_700_000_000,
    });
    expect(validate("ChatCompletion", converted.completion)).toEqual([]);
    await expect(`${JSON.stringify(converted, null, 2)}\n`).toMatchFileSnapshot(
      `../__fixtures__/expected/fake-upstream/${name.replace(".json", ".chat.json")}`,
    );
  });

  it.each([
    ["stream-thinking.chunks.txt", true],
    ["stream-function-call.chunks.txt", false],
  ] as const)("%s streams valid chunks ending in [DONE]", async (name, includeThoughts) => {
    const bytes = new Uint8Array(fakeFixture(name));
    const run = await runNativeChatStream(
      bytes,
      Array.from({ length: bytes.length }, (_, index) => index * 3),
      { model: "gmx-2.5-flash", includeThoughts, created: 1_700_000_000 },
    );
    expect(run.frames.at(-1)).toBe("data: [DONE]\n\n");
    for (const frame of run.frames.slice(0, -1))
      expect(validate("ChatCompletionChunk", JSON.parse(frame.slice(6)))).toEqual([]);
    expect(run.usageReports).toHaveLength(1);
    await expect(run.frames.join("")).toMatchFileSnapshot(
      `../__fixtures__/expected/fake-upstream/${name.replace(".chunks.txt", ".chat.txt")}`,
    );
  });
});
