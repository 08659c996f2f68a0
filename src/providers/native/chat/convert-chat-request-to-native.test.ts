import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import { InvalidRequestError } from "../../../errors/gateway-error.js";
import type { FetchMedia } from "../../../net/create-safe-fetcher.js";
import { convertChatRequestToNative } from "./convert-chat-request-to-native.js";
import { rejectionOf } from "../../../../test/support/rejection-of.js";

type ChatRequest = OpenaiComponents["schemas"]["CreateChatCompletionRequest"];

/**
 * Fixture pairs in __fixtures__/chat-to-native: `<group>.request.json` maps case names to chat requests,
 * `<group>.expected.json` maps the same names to the exact conversion result. Run vitest with -u to rewrite
 * the expected files after an intended change, then review the diff like code.
 */
const fixtureDirectory = fileURLToPath(new URL("../__fixtures__/chat-to-native/", import.meta.url));
const groups = readdirSync(fixtureDirectory)
  .filter((name) => name.endsWith(".request.json"))
  .map((name) => name.slice(0, -".request.json".length))
  .sort();

const platformSafetySettings = [
  { category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" },
  { category: "HARM_CATEGORY_DANGEROUS_CONTENT", threshold: "BLOCK_MEDIUM_AND_ABOVE" },
];

const fakeMedia = new Map([
  ["https://media.example.com/cat.jpg", { mimeType: "image/jpeg", data: Buffer.from("fake jpeg bytes") }],
  ["https://media.example.com/report.pdf", { mimeType: "application/pdf", data: Buffer.from("%PDF-1.7") }],
  ["https://media.example.com/page.html", { mimeType: "text/html", data: Buffer.from("<html>") }],
]);
const fakeFetchMedia: FetchMedia = async (url) => {
  const media = fakeMedia.get(url);
  if (media === undefined) throw new Error(`unexpected download of ${url}`);
  return media;
};

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

function convert(request: ChatRequest, safetySettings: typeof platformSafetySettings | undefined) {
  return convertChatRequestToNative({ request, model: request.model, safetySettings, fetchMedia: fakeFetchMedia });
}

describe.each(groups)("chat → native fixtures: %s", (group) => {
  const requests = readJson<Record<string, ChatRequest>>(`${fixtureDirectory}${group}.request.json`);
  const expectedPath = `${fixtureDirectory}${group}.expected.json`;
  // Default safety settings only where they are the subject, so the other expected bodies stay about their own rows.
  const safetySettings = group === "extra-body" ? platformSafetySettings : undefined;

  it("converts every case as the expected file records", async () => {
    const results: Record<string, unknown> = {};
    for (const [name, request] of Object.entries(requests)) results[name] = await convert(request, safetySettings);
    await expect(`${JSON.stringify(results, null, 2)}\n`).toMatchFileSnapshot(expectedPath);
  });
});

describe("chat → native refusals", () => {
  const base = (overrides: Partial<ChatRequest>): ChatRequest => ({
    model: "gmx-2.5-flash",
    messages: [{ role: "user", content: "hi" }],
    ...overrides,
  });

  const refusal = (request: ChatRequest, model = request.model) =>
    rejectionOf(
      convertChatRequestToNative({ request, model, safetySettings: undefined, fetchMedia: fakeFetchMedia }),
      InvalidRequestError,
    );

  it("refuses a tool result whose tool_call_id matches no earlier call", async () => {
    const error = await refusal(
      base({
        messages: [
          { role: "user", content: "hi" },
          { role: "tool", tool_call_id: "call_nowhere", content: "1" },
        ],
      }),
    );
    expect(error.message).toBe(
      'messages[1].tool_call_id "call_nowhere" does not match the id of any earlier assistant tool_calls entry.',
    );
    expect(error.param).toBe("messages[1].tool_call_id");
  });

  it("refuses a tool result that comes before its call", async () => {
    const error = await refusal(
      base({
        messages: [
          { role: "tool", tool_call_id: "call_1", content: "1" },
          {
            role: "assistant",
            tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }],
          },
        ],
      }),
    );
    expect(error.param).toBe("messages[0].tool_call_id");
  });

  it("refuses an image type outside the allow-list", async () => {
    const error = await refusal(
      base({
        messages: [
          { role: "user", content: [{ type: "image_url", image_url: { url: "data:image/gif;base64,R0lGOD==" } }] },
        ],
      }),
    );
    expect(error.message).toMatch(
      /^messages\[0\]\.content\[0\]\.image_url\.url has media type image\/gif, which this model does not accept/,
    );
  });

  it("refuses a downloaded type outside the allow-list even when the fetcher let it through", async () => {
    const error = await refusal(
      base({
        messages: [
          { role: "user", content: [{ type: "image_url", image_url: { url: "https://media.example.com/page.html" } }] },
        ],
      }),
    );
    expect(error.message).toMatch(/text\/html/);
  });

  it("refuses URL schemes other than http(s) and data", async () => {
    const error = await refusal(
      base({
        messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "file:///etc/passwd" } }] }],
      }),
    );
    expect(error.message).toBe("messages[0].content[0].image_url.url must be an http(s) URL or a data: URI.");
  });

  it("refuses a broken base64 data URI", async () => {
    const error = await refusal(
      base({
        messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "data:image/png;base64,@@@" } }] }],
      }),
    );
    expect(error.message).toBe("messages[0].content[0].image_url.url is not a valid base64 data URI.");
  });

  it("refuses an unsupported audio format", async () => {
    const error = await refusal(
      base({
        messages: [{ role: "user", content: [{ type: "input_audio", input_audio: { data: "AAAA", format: "flac" } }] }],
      }),
    );
    expect(error.param).toBe("messages[0].content[0].input_audio.format");
  });

  it("refuses file_id, which names a file at another provider", async () => {
    const error = await refusal(
      base({ messages: [{ role: "user", content: [{ type: "file", file: { file_id: "file-abc" } }] }] }),
    );
    expect(error.param).toBe("messages[0].content[0].file.file_id");
  });

  it("refuses bare base64 file data whose type cannot be told", async () => {
    const error = await refusal(
      base({
        messages: [{ role: "user", content: [{ type: "file", file: { file_data: "AAAA", filename: "data.bin" } }] }],
      }),
    );
    expect(error.param).toBe("messages[0].content[0].file.file_data");
  });

  it("refuses -nothinking on a generation-3 model", async () => {
    const error = await refusal(base({ model: "gmx-3.5-flash-nothinking" }));
    expect(error.message).toBe(
      "gmx-3.5-flash-nothinking: generation-3 models cannot turn thinking off, so the -nothinking suffix is not available.",
    );
    expect(error.param).toBe("model");
  });

  it("refuses an empty conversation", async () => {
    const error = await refusal(base({ messages: [] }));
    expect(error.param).toBe("messages");
  });

  it("passes fetch failures through unchanged (the safe fetcher already words them for the client)", async () => {
    const fetchError = new InvalidRequestError("Media URL on host example.org is refused.", {
      code: "invalid_media_url",
    });
    const result = convertChatRequestToNative({
      request: base({
        messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://example.org/a.png" } }] }],
      }),
      model: "gmx-2.5-flash",
      safetySettings: undefined,
      fetchMedia: async () => {
        throw fetchError;
      },
    });
    await expect(result).rejects.toBe(fetchError);
  });
});

describe("chat → native model name", () => {
  it("parses the suffix from the mapped model, not from the client's name", async () => {
    const result = await convertChatRequestToNative({
      request: { model: "my-alias", messages: [{ role: "user", content: "hi" }] },
      model: "gmx-2.5-flash-thinking-2048",
      safetySettings: undefined,
      fetchMedia: fakeFetchMedia,
    });
    expect(result.upstreamModel).toBe("gmx-2.5-flash");
    expect(result.body.generationConfig?.thinkingConfig).toEqual({ thinkingBudget: 2048, includeThoughts: true });
    expect(result.includeThoughts).toBe(true);
  });
});
