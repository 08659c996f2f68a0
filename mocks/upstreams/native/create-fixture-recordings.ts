import { startFakeNativeServer } from "./start-fake-native-server.js";

const fixedNow = 1_700_000_000_000;
const fixedResponseId = "fixtureResponseId00001";

const weatherTool = {
  functionDeclarations: [
    {
      name: "get_weather",
      description: "Current weather for a city",
      parameters: { type: "OBJECT", properties: { city: { type: "STRING" } }, required: ["city"] },
    },
  ],
};
const user = (text: string) => ({ role: "user", parts: [{ text }] });
const thinking = { thinkingConfig: { includeThoughts: true } };

const recordings: Array<{ file: string; path: string; body: object }> = [
  {
    file: "generate-text.json",
    path: "/v1beta/models/gmx-2.5-flash:generateContent",
    body: { contents: [user("Say hello to the gateway")] },
  },
  {
    file: "generate-thinking.json",
    path: "/v1beta/models/gmx-2.5-flash:generateContent",
    body: { contents: [user("Why is the sky blue")], generationConfig: thinking },
  },
  {
    file: "generate-function-call.json",
    path: "/v1beta/models/gmx-2.5-flash:generateContent",
    body: { contents: [user("Paris, France")], tools: [weatherTool] },
  },
  {
    file: "generate-image.json",
    path: "/v1beta/models/gmx-2.5-flash-image:generateContent",
    body: { contents: [user("A red square")], generationConfig: { responseModalities: ["TEXT", "IMAGE"] } },
  },
  {
    file: "stream-thinking.chunks.txt",
    path: "/v1beta/models/gmx-2.5-flash:streamGenerateContent?alt=sse",
    body: { contents: [user("Why is the sky blue")], generationConfig: thinking },
  },
  {
    file: "stream-function-call.chunks.txt",
    path: "/v1beta/models/gmx-2.5-flash:streamGenerateContent?alt=sse",
    body: { contents: [user("Paris, France")], tools: [weatherTool] },
  },
  {
    file: "embed-batch.json",
    path: "/v1beta/models/gmx-embedding-001:batchEmbedContents",
    body: {
      requests: [
        { model: "models/gmx-embedding-001", content: { parts: [{ text: "first text" }] } },
        { model: "models/gmx-embedding-001", content: { parts: [{ text: "second text" }] } },
      ],
    },
  },
];

/**
 * The fixture files' contents (file name → exact response bytes as text), produced with a fixed clock and
 * responseId so they are byte-stable: JSON as the fake pretty-prints it, SSE with its CRLF CRLF framing.
 */
export async function createFixtureRecordings(): Promise<Map<string, string>> {
  const contents = new Map<string, string>();
  const upstream = await startFakeNativeServer({ now: () => fixedNow, createResponseId: () => fixedResponseId });
  try {
    for (const recording of recordings) {
      const response = await fetch(`${upstream.url}${recording.path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(recording.body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${recording.file}: HTTP ${response.status} ${text}`);
      contents.set(recording.file, text);
    }
  } finally {
    await upstream.close();
  }
  return contents;
}
