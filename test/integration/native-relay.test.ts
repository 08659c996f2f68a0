import { GoogleGenAI } from "@google/genai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { countNativeEmbeddingTokens } from "../../src/api/native/count-native-embedding-tokens.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();

interface UsageMetadata {
  promptTokenCount: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
}

/** Units at input/output USD per 1M tokens: tokens × price / 1e6 × 500,000, rounded once. */
const unitsFor = (usage: UsageMetadata, input: number, output: number) =>
  Math.round(
    (usage.promptTokenCount * input + ((usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0)) * output) /
      2,
  );

const speechParts = [{ text: "Joe: Hello there <laugh>", speech_metadata: { speaker: "Joe", style: "warm" } }];

describe.each(testDatabases)("native relay (/v1beta) on native channels on $name", ({ database }) => {
  let upstream: FakeNativeUpstream;
  let gateway: TestGateway;
  let apiKey: string;
  let tokenId: number;
  let sdk: GoogleGenAI;

  const post = (path: string, body: unknown, headers: Record<string, string> = { "x-goog-api-key": apiKey }) =>
    fetch(`${gateway.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const remainQuota = async () => (await readToken(gateway, tokenId)).remain_quota;

  beforeAll(async () => {
    upstream = await startFakeNativeServer({ apiKey: "upstream-secret" });
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "native-main",
            type: "native",
            base_url: upstream.url,
            key: "upstream-secret",
            models: [
              "gmx-2.5-flash",
              "gmx-renamed",
              "gmx-embedding-001",
              "gmx-3.8-flash-tts",
              "gmx-3.1-flash-tts-preview",
            ],
            model_mapping: { "gmx-renamed": "gmx-2.5-flash" },
          },
        ],
        pricing: {
          "gmx-2.5-flash": { input: 2, output: 4 },
          "gmx-2.5-flash-thinking": { input: 2, output: 4 },
          "gmx-renamed": { input: 2, output: 4 },
          "gmx-embedding-001": { input: 2, output: 0 },
          "gmx-3.8-flash-tts": { input: 0.5, output: 9 },
          "gmx-3.1-flash-tts-preview": { input: 0.5, output: 9 },
        },
      },
    });
    const created = await createApiKey(gateway, { remainQuota: 10_000_000 });
    apiKey = created.key;
    tokenId = created.id;
    sdk = new GoogleGenAI({ apiKey, httpOptions: { baseUrl: gateway.url } });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });
  beforeEach(() => upstream.reset());

  it("generates through the official SDK, sends the upstream key as x-goog-api-key and bills thoughts as output", async () => {
    const before = await remainQuota();
    const reply = await sdk.models.generateContent({
      model: "gmx-2.5-flash",
      contents: "hello sdk",
      config: { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } },
    });
    expect(reply.text).toBe("Echo: hello sdk");
    const usage = reply.usageMetadata as UsageMetadata;
    expect(usage.thoughtsTokenCount).toBeGreaterThan(0);
    expect(reply.modelVersion).toBe("gmx-2.5-flash");
    const sent = upstream.requests[0]!;
    expect(sent.path).toBe("/v1beta/models/gmx-2.5-flash:generateContent");
    expect(sent.headers["x-goog-api-key"]).toBe("upstream-secret");
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toMatchObject({ contents: [{ role: "user", parts: [{ text: "hello sdk" }] }] });
    expect(before - (await remainQuota())).toBe(unitsFor(usage, 2, 4));
  });

  it("streams through the SDK (alt=sse) byte for byte and bills the last fragment's usage", async () => {
    const before = await remainQuota();
    const stream = await sdk.models.generateContentStream({ model: "gmx-2.5-flash", contents: "stream me please" });
    let text = "";
    let usage: UsageMetadata | undefined;
    for await (const chunk of stream) {
      text += chunk.text ?? "";
      if (chunk.usageMetadata) usage = chunk.usageMetadata as UsageMetadata;
    }
    expect(text).toBe("Echo: stream me please");
    expect(upstream.requests[0]!.path).toBe("/v1beta/models/gmx-2.5-flash:streamGenerateContent?alt=sse");
    expect(before - (await remainQuota())).toBe(unitsFor(usage!, 2, 4));
  });

  it("passes the upstream SSE bytes through unchanged", async () => {
    const body = { contents: [{ parts: [{ text: "raw bytes" }] }] };
    const viaGateway = await post("/v1beta/models/gmx-2.5-flash:streamGenerateContent?alt=sse", body);
    expect(viaGateway.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const gatewayText = await viaGateway.text();
    expect(gatewayText).toContain("\r\n\r\n");
    const events = gatewayText
      .split("\r\n\r\n")
      .filter(Boolean)
      .map((event) => JSON.parse(event.replace(/^data: /, "")));
    expect(events.at(-1).candidates[0].finishReason).toBe("STOP");
  });

  it("answers streamGenerateContent without alt as one JSON array and bills it", async () => {
    const before = await remainQuota();
    const response = await post("/v1beta/models/gmx-2.5-flash:streamGenerateContent", {
      contents: [{ parts: [{ text: "array please" }] }],
    });
    expect(response.status).toBe(200);
    const fragments = (await response.json()) as Array<{ usageMetadata?: UsageMetadata }>;
    expect(Array.isArray(fragments)).toBe(true);
    const usage = fragments.findLast((fragment) => fragment.usageMetadata)!.usageMetadata!;
    expect(before - (await remainQuota())).toBe(unitsFor(usage, 2, 4));
  });

  it("ends a stream that breaks mid-way with one native error event and bills the usage seen so far", async () => {
    upstream.setFaults({ resetMidStreamAfterChunks: 1, times: 1 });
    const before = await remainQuota();
    const response = await post("/v1beta/models/gmx-2.5-flash:streamGenerateContent?alt=sse", {
      contents: [{ parts: [{ text: "one two three four five six seven eight nine ten eleven twelve" }] }],
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    const events = text.split(/\r\n\r\n|\n\n/).filter((event) => event.trim() !== "");
    expect(events.length).toBe(2);
    const first = JSON.parse(events[0]!.replace(/^data: /, "")) as { usageMetadata?: UsageMetadata };
    expect(JSON.parse(events[1]!.replace(/^data: /, ""))).toEqual({
      error: { code: 502, message: "The upstream stream ended unexpectedly.", status: "UNAVAILABLE" },
    });
    const spent = before - (await remainQuota());
    expect(first.usageMetadata).toBeDefined();
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBe(unitsFor(first.usageMetadata!, 2, 4));
  });

  it("answers a stream that breaks before its first event in the native JSON envelope, billing nothing", async () => {
    upstream.setFaults({ resetMidStreamAfterChunks: 0, times: 1 });
    const before = await remainQuota();
    const response = await post("/v1beta/models/gmx-2.5-flash:streamGenerateContent?alt=sse", {
      contents: [{ parts: [{ text: "one two" }] }],
    });
    expect(response.status).toBe(502);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const requestId = response.headers.get("x-request-id");
    expect(await response.json()).toEqual({
      error: {
        code: 502,
        message: `The upstream stream broke off before its first event. (request id ${requestId})`,
        status: "UNAVAILABLE",
      },
    });
    expect(await remainQuota()).toBe(before);
  });

  it("embeds through the SDK (batchEmbedContents) and bills the counted text as prompt tokens", async () => {
    const before = await remainQuota();
    const embedded = await sdk.models.embedContent({ model: "gmx-embedding-001", contents: ["alpha beta", "gamma"] });
    expect(embedded.embeddings?.map((embedding) => embedding.values?.length)).toEqual([8, 8]);
    const sent = upstream.requests[0]!;
    expect(sent.path).toBe("/v1beta/models/gmx-embedding-001:batchEmbedContents");
    const tokens = countNativeEmbeddingTokens(sent.body as never);
    expect(tokens).toBe(3 + Math.ceil("alpha betagamma".length / 3));
    expect(before - (await remainQuota())).toBe(tokens);
  });

  it("embeds one content with :embedContent; the path's model decides, a model in the body is rewritten to the channel's", async () => {
    const response = await post("/v1beta/models/gmx-embedding-001:embedContent", {
      model: "models/gmx-other",
      content: { parts: [{ text: "hi" }] },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { embedding: { values: number[] } }).embedding.values).toHaveLength(8);
    expect(upstream.requests[0]!.body).toEqual({
      model: "models/gmx-embedding-001",
      content: { parts: [{ text: "hi" }] },
    });
  });

  it.each([
    ["Bearer", { authorization: "Bearer KEY" }, ""],
    ["x-native-api-key", { "x-native-api-key": "KEY" }, ""],
    ["x-goog-api-key", { "x-goog-api-key": "KEY" }, ""],
    ["?key=", {}, "?key=KEY"],
  ])("accepts the key as %s", async (_name, headers, query) => {
    const withKey = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, value.replace("KEY", apiKey)]),
    );
    const response = await post(
      `/v1beta/models/gmx-2.5-flash:generateContent${query.replace("KEY", apiKey)}`,
      { contents: [{ parts: [{ text: "auth" }] }] },
      withKey,
    );
    expect(response.status).toBe(200);
    // The client's key never travels upstream, in a header or the query.
    expect(upstream.requests[0]!.path).toBe("/v1beta/models/gmx-2.5-flash:generateContent");
    expect(upstream.requests[0]!.headers["x-goog-api-key"]).toBe("upstream-secret");
  });

  it("refuses a missing key with 401 UNAUTHENTICATED in the native envelope", async () => {
    const response = await post(
      "/v1beta/models/gmx-2.5-flash:generateContent",
      { contents: [{ parts: [{ text: "x" }] }] },
      {},
    );
    expect(response.status).toBe(401);
    const body = (await response.json()) as { error: { code: number; status: string; message: string } };
    expect(body.error).toMatchObject({ code: 401, status: "UNAUTHENTICATED" });
    expect(upstream.requests).toHaveLength(0);
  });

  it("serves /v1/models/{model}:generateContent with the model mapped for the channel, and a leading models/ is stripped", async () => {
    const response = await post("/v1/models/gmx-renamed:generateContent", {
      contents: [{ parts: [{ text: "v1 path" }] }],
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { modelVersion: string }).modelVersion).toBe("gmx-2.5-flash");
    expect(upstream.requests[0]!.path).toBe("/v1beta/models/gmx-2.5-flash:generateContent");
    const prefixed = await post("/v1beta/models/models%2Fgmx-2.5-flash:generateContent", {
      contents: [{ parts: [{ text: "prefixed" }] }],
    });
    expect(prefixed.status).toBe(200);
    const v1Sdk = new GoogleGenAI({ apiKey, httpOptions: { baseUrl: gateway.url, apiVersion: "v1" } });
    expect((await v1Sdk.models.generateContent({ model: "gmx-2.5-flash", contents: "via v1" })).text).toBe(
      "Echo: via v1",
    );
  });

  it("splits a thinking suffix off for routing and turns it into thinkingConfig", async () => {
    const response = await post("/v1beta/models/gmx-2.5-flash-thinking:generateContent", {
      contents: [{ parts: [{ text: "think" }] }],
    });
    expect(response.status).toBe(200);
    expect(upstream.requests[0]!.path).toBe("/v1beta/models/gmx-2.5-flash:generateContent");
    expect((upstream.requests[0]!.body as { generationConfig: unknown }).generationConfig).toEqual({
      thinkingConfig: { thinkingBudget: -1, includeThoughts: true },
    });
  });

  it("passes an upstream 400 through as 400 INVALID_ARGUMENT with the upstream's message, unbilled", async () => {
    const before = await remainQuota();
    const response = await post("/v1beta/models/gmx-2.5-flash:generateContent", {
      contents: [{ parts: [{ text: "x" }] }],
      generationConfig: { responseModalities: ["AUDIO"] },
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: number; status: string; message: string } };
    expect(body.error.code).toBe(400);
    expect(body.error.status).toBe("INVALID_ARGUMENT");
    expect(body.error.message).toContain(
      "The requested combination of response modalities (AUDIO) is not supported by the model.",
    );
    expect(await remainQuota()).toBe(before);
  });

  it("answers an unknown model with 404 NOT_FOUND, no available channel (the seed's native error table)", async () => {
    const response = await post("/v1beta/models/gmx-unknown:generateContent", {
      contents: [{ parts: [{ text: "x" }] }],
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { code: 404, message: "no available channel for model gmx-unknown", status: "NOT_FOUND" },
    });
  });

  it("synthesises speech with gmx-3.8-flash-tts and speech_metadata, returns audio/wav and bills 0.50 / 9.00 USD per 1M", async () => {
    const before = await remainQuota();
    const response = await post("/v1beta/models/gmx-3.8-flash-tts:generateContent", {
      contents: [{ role: "user", parts: speechParts }],
      generationConfig: {
        responseModalities: ["AUDIO"],
        speechConfig: {
          multiSpeakerVoiceConfig: {
            speakerVoiceConfigs: [{ speaker: "Joe", voiceConfig: { prebuiltVoiceConfig: { voiceName: "Kore" } } }],
          },
        },
      },
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as {
      candidates: Array<{ content: { parts: Array<{ inlineData: { mimeType: string; data: string } }> } }>;
      usageMetadata: UsageMetadata;
    };
    const audio = answer.candidates[0]!.content.parts[0]!.inlineData;
    expect(audio.mimeType).toBe("audio/wav");
    expect(Buffer.from(audio.data, "base64").subarray(0, 4).toString("ascii")).toBe("RIFF");
    expect((upstream.requests[0]!.body as { contents: Array<{ parts: unknown }> }).contents[0]!.parts).toEqual(
      speechParts,
    );
    expect(before - (await remainQuota())).toBe(unitsFor(answer.usageMetadata, 0.5, 9));
  });

  it("refuses speech_metadata for other speech models and several turns for gmx-3.1-flash-tts-preview, before any upstream call", async () => {
    const generationConfig = {
      responseModalities: ["AUDIO"],
      speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: "Kore" } } },
    };
    const withMetadata = await post("/v1beta/models/gmx-3.1-flash-tts-preview:generateContent", {
      contents: [{ role: "user", parts: speechParts }],
      generationConfig,
    });
    expect(withMetadata.status).toBe(400);
    expect(((await withMetadata.json()) as { error: { message: string } }).error.message).toContain(
      "speech_metadata is supported only by gmx-3.8-flash-tts",
    );
    const multiTurn = await post("/v1beta/models/gmx-3.1-flash-tts-preview:generateContent", {
      contents: [
        { role: "user", parts: [{ text: "Say hello" }] },
        { role: "model", parts: [{ text: "Hello" }] },
        { role: "user", parts: [{ text: "Again" }] },
      ],
      generationConfig,
    });
    expect(multiTurn.status).toBe(400);
    expect(await multiTurn.json()).toEqual({
      error: { code: 400, message: "multi-turn chat not enabled for this model", status: "INVALID_ARGUMENT" },
    });
    expect(upstream.requests).toHaveLength(0);
    const single = await post("/v1beta/models/gmx-3.1-flash-tts-preview:generateContent", {
      contents: [{ role: "user", parts: [{ text: "Say cheerfully: hi" }] }],
      generationConfig,
    });
    expect(single.status).toBe(200);
    const answer = (await single.json()) as {
      candidates: Array<{ content: { parts: Array<{ inlineData: { mimeType: string } }> } }>;
    };
    expect(answer.candidates[0]!.content.parts[0]!.inlineData.mimeType).toMatch(/^audio\/l16;codec=pcm;rate=\d+$/);
  });

  it("lists voices with every filter forwarded, pages with next_page_token, and bills nothing", async () => {
    const before = await remainQuota();
    const query = new URLSearchParams([
      ["model", "gmx-3.8-flash-tts"],
      ["language_code", "en-US"],
      ["language_code", "de-DE"],
      ["gender", "female"],
      ["page_size", "2"],
    ]);
    const first = await fetch(`${gateway.url}/v1beta/voices?${query}`, { headers: { "x-goog-api-key": apiKey } });
    expect(first.status).toBe(200);
    const page = (await first.json()) as {
      voices: Array<{ gender: string; language_code: string }>;
      next_page_token?: string;
    };
    expect(page.voices).toHaveLength(2);
    expect(
      page.voices.every((voice) => voice.gender === "female" && ["en-US", "de-DE"].includes(voice.language_code)),
    ).toBe(true);
    expect(page.next_page_token).toBeTruthy();
    expect(upstream.requests[0]!.query).toEqual({
      model: "gmx-3.8-flash-tts",
      language_code: ["en-US", "de-DE"],
      gender: "female",
      page_size: "2",
    });
    query.set("page_token", page.next_page_token!);
    const second = (await (await fetch(`${gateway.url}/v1beta/voices?${query}&key=${apiKey}`)).json()) as {
      voices: Array<{ id: string }>;
    };
    expect(second.voices.length).toBeGreaterThan(0);
    expect(upstream.requests[1]!.query.key).toBeUndefined();
    // The default page size is the seed's 50; the filters reach the upstream as given.
    const filtered = await fetch(
      `${gateway.url}/v1beta/voices?model=gmx-3.8-flash-tts&pitch=low&context=${encodeURIComponent("Enterprise Agent")}&type=prebuilt&search=calm`,
      { headers: { authorization: `Bearer ${apiKey}` } },
    );
    expect(filtered.status).toBe(200);
    expect(upstream.requests[2]!.query).toEqual({
      model: "gmx-3.8-flash-tts",
      pitch: "low",
      context: "Enterprise Agent",
      type: "prebuilt",
      search: "calm",
      page_size: "50",
    });
    expect(await remainQuota()).toBe(before);
    const unknown = await fetch(`${gateway.url}/v1beta/voices?model=gmx-nope`, {
      headers: { "x-goog-api-key": apiKey },
    });
    expect(unknown.status).toBe(404);
  });

  it("lists the key's models in the native shape, paged by us, honouring model limits", async () => {
    const first = await fetch(`${gateway.url}/v1beta/models?pageSize=2`, { headers: { "x-goog-api-key": apiKey } });
    const page = (await first.json()) as {
      models: Array<{ name: string; supportedGenerationMethods: string[] }>;
      nextPageToken?: string;
    };
    expect(page.models.map((model) => model.name)).toEqual([
      "models/gmx-2.5-flash",
      "models/gmx-3.1-flash-tts-preview",
    ]);
    const rest = (await (
      await fetch(`${gateway.url}/v1beta/models?pageSize=10&pageToken=${page.nextPageToken}`, {
        headers: { "x-goog-api-key": apiKey },
      })
    ).json()) as {
      models: Array<{ name: string; supportedGenerationMethods: string[] }>;
      nextPageToken?: string;
    };
    expect(rest.models.map((model) => model.name)).toEqual([
      "models/gmx-3.8-flash-tts",
      "models/gmx-embedding-001",
      "models/gmx-renamed",
    ]);
    expect(rest.nextPageToken).toBeUndefined();
    expect(rest.models.find((model) => model.name === "models/gmx-embedding-001")!.supportedGenerationMethods).toEqual([
      "embedContent",
      "batchEmbedContents",
    ]);
    const limited = await createApiKey(gateway, { remainQuota: 1000, modelLimits: ["gmx-embedding-001"] });
    const limitedPage = (await (
      await fetch(`${gateway.url}/v1beta/models`, { headers: { "x-goog-api-key": limited.key } })
    ).json()) as { models: Array<{ name: string }> };
    expect(limitedPage.models.map((model) => model.name)).toEqual(["models/gmx-embedding-001"]);
    const voices = await fetch(`${gateway.url}/v1beta/voices?model=gmx-3.8-flash-tts`, {
      headers: { "x-goog-api-key": limited.key },
    });
    expect(voices.status).toBe(403);
  });
});
