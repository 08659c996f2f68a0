import { startFakeOpenaiServer } from "./start-fake-openai-server.js";

const fixedNow = 1_700_000_000_000;

const weatherTool = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

const recordings: { file: string; path: string; body: object; pretty?: boolean }[] = [
  {
    file: "chat.json",
    path: "/v1/chat/completions",
    body: { model: "gpt-4o-mini", messages: [{ role: "user", content: "Say hello to the gateway" }] },
    pretty: true,
  },
  {
    file: "chat-stream.chunks.txt",
    path: "/v1/chat/completions",
    body: {
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Say hello to the gateway" }],
      stream: true,
      stream_options: { include_usage: true },
    },
  },
  {
    file: "chat-tool-stream.chunks.txt",
    path: "/v1/chat/completions",
    body: {
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Paris, France" }],
      tools: [weatherTool],
      stream: true,
      stream_options: { include_usage: true },
    },
  },
  {
    file: "responses-stream.chunks.txt",
    path: "/v1/responses",
    body: { model: "gpt-4o-mini", input: [{ role: "user", content: "Say hello to the gateway" }], stream: true },
  },
];

/**
 * The fixture files' contents (file name → text), produced by the fake with a fixed clock and a fresh
 * server per file, so they are byte-stable and each file's ids start at 000001.
 */
export async function createFixtureRecordings(): Promise<Map<string, string>> {
  const contents = new Map<string, string>();
  for (const recording of recordings) {
    const upstream = await startFakeOpenaiServer({ now: () => fixedNow });
    try {
      const response = await fetch(`${upstream.url}${recording.path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(recording.body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${recording.file}: HTTP ${response.status} ${text}`);
      contents.set(recording.file, recording.pretty ? `${JSON.stringify(JSON.parse(text), null, 2)}\n` : text);
    } finally {
      await upstream.close();
    }
  }
  return contents;
}
