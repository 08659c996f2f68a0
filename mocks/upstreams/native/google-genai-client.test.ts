import { GoogleGenAI } from "@google/genai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeNativeUpstream } from "./fake-native-types.js";
import { startFakeNativeServer } from "./start-fake-native-server.js";

// The official native SDK must not notice it talks to a fake: it parses bodies, SSE framing and errors as usual.
let upstream: FakeNativeUpstream;
let client: GoogleGenAI;
beforeAll(async () => {
  upstream = await startFakeNativeServer({ apiKey: "sdk-key" });
  client = new GoogleGenAI({ apiKey: "sdk-key", httpOptions: { baseUrl: upstream.url } });
});
afterAll(() => upstream.close());

describe("@google/genai against the fake", () => {
  it("generates, streams and embeds", async () => {
    const reply = await client.models.generateContent({
      model: "gmx-2.5-flash",
      contents: "hello sdk",
      config: { thinkingConfig: { includeThoughts: true } },
    });
    expect(reply.text).toBe("Echo: hello sdk");
    expect(reply.usageMetadata?.thoughtsTokenCount).toBe(4);

    const stream = await client.models.generateContentStream({ model: "gmx-2.5-flash", contents: "stream me please" });
    let streamed = "";
    let finishReason: string | undefined;
    for await (const chunk of stream) {
      streamed += chunk.text ?? "";
      finishReason = chunk.candidates?.[0]?.finishReason ?? finishReason;
    }
    expect(streamed).toBe("Echo: stream me please");
    expect(finishReason).toBe("STOP");

    const embedded = await client.models.embedContent({ model: "gmx-embedding-001", contents: ["one", "two"] });
    expect(embedded.embeddings?.map((embedding) => embedding.values?.length)).toEqual([8, 8]);

    const calls = upstream.requests.map((request) => `${request.method} ${request.path.split("?")[0]}`);
    expect(calls).toEqual([
      "POST /v1beta/models/gmx-2.5-flash:generateContent",
      "POST /v1beta/models/gmx-2.5-flash:streamGenerateContent",
      "POST /v1beta/models/gmx-embedding-001:batchEmbedContents",
    ]);
    expect(upstream.requests[1]!.query.alt).toBe("sse");
    expect(upstream.requests.every((request) => request.headers["x-goog-api-key"] === "sdk-key")).toBe(true);
  });

  it("surfaces the native error envelope as an SDK error", async () => {
    const failure = client.models.generateContent({ model: "other-model", contents: "hi" });
    await expect(failure).rejects.toMatchObject({ status: 404 });
    await expect(failure).rejects.toThrow(/models\/other-model is not found/);
  });
});
