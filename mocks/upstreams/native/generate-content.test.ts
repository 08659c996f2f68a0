import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildSafetyRatings } from "./build-safety-ratings.js";
import { callFakeNative, withoutIdentity } from "./call-fake-native.js";
import type { FakeNativeUpstream } from "./fake-native-types.js";
import { startFakeNativeServer } from "./start-fake-native-server.js";

let upstream: FakeNativeUpstream;
beforeAll(async () => {
  upstream = await startFakeNativeServer();
});
afterAll(() => upstream.close());
beforeEach(() => upstream.reset());

const generate = (model: string, body: unknown) =>
  callFakeNative(upstream.url, `/v1beta/models/${model}:generateContent`, body);
const user = (text: string) => ({ role: "user", parts: [{ text }] });
const ratings = buildSafetyRatings();

describe("generateContent text", () => {
  it("echoes the last user text with deterministic usage", async () => {
    const { status, headers, json } = await generate("gmx-2.5-flash", {
      systemInstruction: { parts: [{ text: "Be brief." }] },
      contents: [user("first question"), { role: "model", parts: [{ text: "first answer" }] }, user("hello there")],
    });
    expect(status).toBe(200);
    expect(headers.get("content-type")).toBe("application/json; charset=UTF-8");
    // prompt: (2 + 2 system words) + (2 + 2) + (2 + 2) + (2 + 2) = 16
    expect(withoutIdentity(json)).toEqual({
      candidates: [
        {
          content: { parts: [{ text: "Echo: hello there" }], role: "model" },
          finishReason: "STOP",
          index: 0,
          safetyRatings: ratings,
        },
      ],
      usageMetadata: {
        promptTokenCount: 16,
        candidatesTokenCount: 3,
        totalTokenCount: 19,
        promptTokensDetails: [{ modality: "TEXT", tokenCount: 16 }],
        candidatesTokensDetails: [{ modality: "TEXT", tokenCount: 3 }],
      },
      modelVersion: "gmx-2.5-flash",
    });
  });

  it("reports cached tokens, counts media parts by modality, and truncates at maxOutputTokens", async () => {
    const { json } = await generate("gmx-2.5-flash", {
      cachedContent: "cachedContents/abc",
      contents: [
        {
          role: "user",
          parts: [{ text: "describe this picture please" }, { inlineData: { mimeType: "image/png", data: "AAAA" } }],
        },
      ],
      generationConfig: { maxOutputTokens: 2 },
    });
    expect(json.candidates[0].content.parts).toEqual([{ text: "Echo: describe" }]);
    expect(json.candidates[0].finishReason).toBe("MAX_TOKENS");
    expect(json.usageMetadata).toEqual({
      promptTokenCount: 264,
      candidatesTokenCount: 2,
      totalTokenCount: 266,
      cachedContentTokenCount: 132,
      promptTokensDetails: [
        { modality: "TEXT", tokenCount: 6 },
        { modality: "IMAGE", tokenCount: 258 },
      ],
      candidatesTokensDetails: [{ modality: "TEXT", tokenCount: 2 }],
    });
  });

  it("cuts at a stop sequence", async () => {
    const { json } = await generate("gmx-2.5-flash", {
      contents: [user("one two three")],
      generationConfig: { stopSequences: [" two"] },
    });
    expect(json.candidates[0].content.parts).toEqual([{ text: "Echo: one" }]);
    expect(json.candidates[0].finishReason).toBe("STOP");
  });

  it("answers valid JSON for responseMimeType application/json, following responseSchema", async () => {
    const plain = await generate("gmx-2.5-flash", {
      contents: [user("hi")],
      generationConfig: { responseMimeType: "application/json" },
    });
    expect(JSON.parse(plain.json.candidates[0].content.parts[0].text)).toEqual({ echo: "hi" });
    const schema = {
      type: "OBJECT",
      properties: {
        city: { type: "STRING" },
        days: { type: "INTEGER" },
        tags: { type: "ARRAY", items: { type: "STRING", enum: ["sun"] } },
      },
    };
    const shaped = await generate("gmx-2.5-flash", {
      contents: [user("Paris")],
      generationConfig: { responseMimeType: "application/json", responseSchema: schema },
    });
    expect(JSON.parse(shaped.json.candidates[0].content.parts[0].text)).toEqual({
      city: "Paris",
      days: 1,
      tags: ["sun"],
    });
  });
});

describe("generateContent thinking", () => {
  it("adds a thought part and thoughtsTokenCount when includeThoughts is true", async () => {
    const { json } = await generate("gmx-2.5-flash", {
      contents: [user("why is the sky blue")],
      generationConfig: { thinkingConfig: { includeThoughts: true } },
    });
    expect(json.candidates[0].content.parts).toEqual([
      { text: "Thinking about why is the sky blue", thought: true },
      { text: "Echo: why is the sky blue" },
    ]);
    expect(json.usageMetadata).toEqual({
      promptTokenCount: 7,
      candidatesTokenCount: 6,
      totalTokenCount: 20,
      promptTokensDetails: [{ modality: "TEXT", tokenCount: 7 }],
      candidatesTokensDetails: [{ modality: "TEXT", tokenCount: 6 }],
      thoughtsTokenCount: 7,
    });
  });

  it("hides thoughts without includeThoughts but still counts them; budget 0 means no thinking", async () => {
    const hidden = await generate("gmx-2.5-flash", {
      contents: [user("hi")],
      generationConfig: { thinkingConfig: { thinkingBudget: 1024 } },
    });
    expect(hidden.json.candidates[0].content.parts).toEqual([{ text: "Echo: hi" }]);
    expect(hidden.json.usageMetadata.thoughtsTokenCount).toBe(3);
    const off = await generate("gmx-2.5-flash", {
      contents: [user("hi")],
      generationConfig: { thinkingConfig: { thinkingBudget: 0, includeThoughts: true } },
    });
    expect(off.json.candidates[0].content.parts).toEqual([{ text: "Echo: hi" }]);
    expect(off.json.usageMetadata.thoughtsTokenCount).toBeUndefined();
  });

  it("caps the thought at a positive thinkingBudget", async () => {
    const { json } = await generate("gmx-2.5-flash", {
      contents: [user("a b c d e")],
      generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 3 } },
    });
    expect(json.candidates[0].content.parts[0]).toEqual({ text: "Thinking about a", thought: true });
    expect(json.usageMetadata.thoughtsTokenCount).toBe(3);
  });
});

describe("generateContent tools", () => {
  const weatherTool = {
    functionDeclarations: [
      {
        name: "get_weather",
        description: "Weather",
        parameters: { type: "OBJECT", properties: { location: { type: "STRING" }, days: { type: "INTEGER" } } },
      },
      { name: "get_time", parameters: { type: "OBJECT", properties: { zone: { type: "STRING" } } } },
    ],
  };

  it("calls the first declared function with schema-shaped args and finishReason STOP", async () => {
    const { json } = await generate("gmx-2.5-flash", { contents: [user("Paris")], tools: [weatherTool] });
    expect(withoutIdentity(json)).toEqual({
      candidates: [
        {
          content: {
            parts: [{ functionCall: { name: "get_weather", args: { location: "Paris", days: 1 } } }],
            role: "model",
          },
          finishReason: "STOP",
          index: 0,
          safetyRatings: ratings,
        },
      ],
      usageMetadata: {
        promptTokenCount: 3,
        candidatesTokenCount: 5,
        totalTokenCount: 8,
        promptTokensDetails: [{ modality: "TEXT", tokenCount: 3 }],
        candidatesTokensDetails: [{ modality: "TEXT", tokenCount: 5 }],
      },
      modelVersion: "gmx-2.5-flash",
    });
  });

  it("honours allowedFunctionNames, mode NONE, and signs calls when thinking", async () => {
    const allowed = await generate("gmx-2.5-flash", {
      contents: [user("UTC")],
      tools: [weatherTool],
      toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_time"] } },
      generationConfig: { thinkingConfig: { thinkingBudget: -1 } },
    });
    const part = allowed.json.candidates[0].content.parts[0];
    expect(part.functionCall).toEqual({ name: "get_time", args: { zone: "UTC" } });
    expect(part.thoughtSignature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const none = await generate("gmx-2.5-flash", {
      contents: [user("UTC")],
      tools: [weatherTool],
      toolConfig: { functionCallingConfig: { mode: "NONE" } },
    });
    expect(none.json.candidates[0].content.parts).toEqual([{ text: "Echo: UTC" }]);
  });

  it("calls the function a [tool:Name {json}] script in the user's text names, with those args", async () => {
    const { json } = await generate("gmx-2.5-flash", {
      contents: [user('Time please [tool:get_time {"zone":"Europe/Paris"}]')],
      tools: [weatherTool],
    });
    expect(json.candidates[0].content.parts).toEqual([
      { functionCall: { name: "get_time", args: { zone: "Europe/Paris" } } },
    ]);
  });

  it("answers a functionResponse with text that includes the response", async () => {
    const { json } = await generate("gmx-2.5-flash", {
      tools: [weatherTool],
      contents: [
        user("Paris"),
        { role: "model", parts: [{ functionCall: { name: "get_weather", args: { location: "Paris" } } }] },
        { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { temperature: 21 } } }] },
      ],
    });
    expect(json.candidates[0].content.parts).toEqual([{ text: 'Function get_weather returned {"temperature":21}' }]);
    expect(json.candidates[0].finishReason).toBe("STOP");
  });

  it("returns executableCode and codeExecutionResult parts for the codeExecution tool", async () => {
    const { json } = await generate("gmx-2.5-flash", { contents: [user("print me")], tools: [{ codeExecution: {} }] });
    expect(json.candidates[0].content.parts).toEqual([
      { executableCode: { language: "PYTHON", code: 'print("print me")' } },
      { codeExecutionResult: { outcome: "OUTCOME_OK", output: "print me\n" } },
      { text: "Echo: print me" },
    ]);
  });

  it("adds groundingMetadata for the nativeSearch tool and for [search]", async () => {
    const viaTool = await generate("gmx-2.5-flash", { contents: [user("latest news")], tools: [{ nativeSearch: {} }] });
    expect(viaTool.json.candidates[0].groundingMetadata).toEqual({
      webSearchQueries: ["latest news"],
      searchEntryPoint: { renderedContent: '<div class="search-entry-point">latest news</div>' },
      groundingChunks: [{ web: { uri: "https://search.example.com/result/1", title: "example.com" } }],
      groundingSupports: [
        { segment: { startIndex: 0, endIndex: 17, text: "Echo: latest news" }, groundingChunkIndices: [0] },
      ],
    });
    const viaPrompt = await generate("gmx-2.5-flash", { contents: [user("[search] weather")] });
    expect(viaPrompt.json.candidates[0].groundingMetadata.webSearchQueries).toEqual(["weather"]);
  });
});

describe("generateContent media", () => {
  it("returns a text part and a valid PNG for IMAGE (any case), sized by imageConfig", async () => {
    const { json } = await generate("gmx-2.5-flash-image", {
      contents: [user("a red fox")],
      generationConfig: {
        responseModalities: ["text", "Image"],
        imageConfig: { aspectRatio: "16:9", imageSize: "2K" },
      },
    });
    const [text, image] = json.candidates[0].content.parts;
    expect(text).toEqual({ text: "Echo: a red fox" });
    expect(image.inlineData.mimeType).toBe("image/png");
    const png = Buffer.from(image.inlineData.data, "base64");
    expect(png.subarray(1, 4).toString("ascii")).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([32, 18]);
    expect(json.usageMetadata.candidatesTokensDetails).toEqual([
      { modality: "TEXT", tokenCount: 4 },
      { modality: "IMAGE", tokenCount: 1290 },
    ]);
    expect(json.usageMetadata.candidatesTokenCount).toBe(1294);
  });

  it("rejects an unsupported aspect ratio", async () => {
    const { status, json } = await generate("gmx-2.5-flash-image", {
      contents: [user("x")],
      generationConfig: { responseModalities: ["IMAGE"], imageConfig: { aspectRatio: "7:1" } },
    });
    expect(status).toBe(400);
    expect(json).toEqual({
      error: { code: 400, message: "Unsupported aspect ratio: 7:1", status: "INVALID_ARGUMENT" },
    });
  });

  it("speaks a complete WAV on gmx-3.8-flash-tts", async () => {
    const { json } = await generate("gmx-3.8-flash-tts", {
      contents: [user("Say hello"), { role: "model", parts: [{ text: "ok" }] }, user("Say goodbye now")],
      generationConfig: {
        responseModalities: ["AUDIO"],
        speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: "Kore" } } },
      },
    });
    const [part] = json.candidates[0].content.parts;
    expect(part.inlineData.mimeType).toBe("audio/wav");
    const wav = Buffer.from(part.inlineData.data, "base64");
    expect(wav.subarray(0, 4).toString("ascii")).toBe("RIFF");
    expect(wav.subarray(8, 12).toString("ascii")).toBe("WAVE");
    expect(wav.readUInt32LE(24)).toBe(24000);
    expect(wav.readUInt32LE(40)).toBe(3 * 2400 * 2);
    expect(json.usageMetadata.candidatesTokensDetails).toEqual([{ modality: "AUDIO", tokenCount: 8 }]);
  });

  it("speaks raw PCM on gmx-3.1-flash-tts-preview and refuses several turns", async () => {
    const speech = {
      responseModalities: ["AUDIO"],
      speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: "en-US-Zephyr" } } },
    };
    const { json } = await generate("gmx-3.1-flash-tts-preview", {
      contents: [user("Say cheerfully: hi")],
      generationConfig: speech,
    });
    const [part] = json.candidates[0].content.parts;
    expect(part.inlineData.mimeType).toBe("audio/l16;codec=pcm;rate=24000");
    expect(Buffer.from(part.inlineData.data, "base64").length).toBe(3 * 2400 * 2);
    const multiTurn = await generate("gmx-3.1-flash-tts-preview", {
      contents: [user("one"), { role: "model", parts: [{ text: "x" }] }, user("two")],
      generationConfig: speech,
    });
    expect(multiTurn.status).toBe(400);
    expect(multiTurn.json).toEqual({
      error: { code: 400, message: "multi-turn chat not enabled for this model", status: "INVALID_ARGUMENT" },
    });
  });

  it("rejects unknown voices and text output from speech models", async () => {
    const badVoice = await generate("gmx-3.8-flash-tts", {
      contents: [user("hi")],
      generationConfig: {
        responseModalities: ["AUDIO"],
        speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: "Nobody" } } },
      },
    });
    expect(badVoice.status).toBe(400);
    const textOnly = await generate("gmx-3.8-flash-tts", { contents: [user("hi")] });
    expect(textOnly.json.error.message).toBe(
      "The requested combination of response modalities (TEXT) is not supported by the model.",
    );
  });
});

describe("generateContent magic prompts", () => {
  it("[block] blocks the prompt: no candidates, promptFeedback SAFETY", async () => {
    const { json } = await generate("gmx-2.5-flash", { contents: [user("[block] me")] });
    expect(withoutIdentity(json)).toEqual({
      promptFeedback: { blockReason: "SAFETY", safetyRatings: buildSafetyRatings(true) },
      usageMetadata: {
        promptTokenCount: 4,
        totalTokenCount: 4,
        promptTokensDetails: [{ modality: "TEXT", tokenCount: 4 }],
      },
      modelVersion: "gmx-2.5-flash",
    });
  });

  it("[safety] and [recitation] stop the candidate without content", async () => {
    const safety = await generate("gmx-2.5-flash", { contents: [user("[safety]")] });
    expect(safety.json.candidates).toEqual([
      { finishReason: "SAFETY", index: 0, safetyRatings: buildSafetyRatings(true) },
    ]);
    expect(safety.json.usageMetadata.candidatesTokenCount).toBeUndefined();
    const recitation = await generate("gmx-2.5-flash", { contents: [user("[recitation]")] });
    expect(recitation.json.candidates[0].finishReason).toBe("RECITATION");
    expect(recitation.json.candidates[0].content).toBeUndefined();
    expect(recitation.json.candidates[0].citationMetadata.citationSources).toHaveLength(1);
  });
});

describe("errors and routing", () => {
  it.each([
    [{}, "contents is required"],
    [{ contents: [] }, "contents is required"],
    [{ contents: [{ role: "user", parts: [] }] }, "contents[0].parts must not be empty"],
    [{ contents: [{ role: "assistant", parts: [{ text: "x" }] }] }, "Please use a valid role: user, model."],
    [
      { contents: [user("x")], generationConfig: { temperature: 3 } },
      "generationConfig.temperature must be between 0 and 2",
    ],
  ])("400 INVALID_ARGUMENT for %j", async (body, message) => {
    const { status, json } = await generate("gmx-2.5-flash", body);
    expect(status).toBe(400);
    expect(json).toEqual({ error: { code: 400, message, status: "INVALID_ARGUMENT" } });
  });

  it("400 for malformed JSON", async () => {
    const { status, json } = await generate("gmx-2.5-flash", "{nope");
    expect(status).toBe(400);
    expect(json.error.message).toBe("Invalid JSON payload received. Unexpected token.");
  });

  it("404 NOT_FOUND for a model outside the family and for unknown paths", async () => {
    const model = await generate("gpt-4o", { contents: [user("x")] });
    expect(model.status).toBe(404);
    expect(model.json.error.status).toBe("NOT_FOUND");
    expect(model.json.error.message).toMatch(/^models\/gpt-4o is not found for API version v1beta/);
    const path = await callFakeNative(upstream.url, "/v1beta/somewhere");
    expect(path.json).toEqual({
      error: { code: 404, message: "Method not found: GET /v1beta/somewhere", status: "NOT_FOUND" },
    });
    const method = await callFakeNative(upstream.url, "/v1beta/models/gmx-2.5-flash:launchRocket", { contents: [] });
    expect(method.status).toBe(404);
  });

  it("also serves /v1/models/{model}:generateContent, as newer native SDKs call it", async () => {
    const { status, json } = await callFakeNative(upstream.url, "/v1/models/gmx-2.5-flash:generateContent", {
      contents: [user("v1")],
    });
    expect(status).toBe(200);
    expect(json.candidates[0].content.parts[0].text).toBe("Echo: v1");
  });

  it("lists models and counts tokens", async () => {
    const { json } = await callFakeNative(upstream.url, "/v1beta/models");
    expect(json.models.map((model: { name: string }) => model.name)).toContain("models/gmx-3.8-flash-tts");
    expect(json.models[0]).toMatchObject({
      name: "models/gmx-2.5-flash",
      displayName: "GMX 2.5 Flash",
      supportedGenerationMethods: expect.arrayContaining(["generateContent"]),
    });
    const one = await callFakeNative(upstream.url, "/v1beta/models/gmx-2.5-pro");
    expect(one.json.name).toBe("models/gmx-2.5-pro");
    const count = await callFakeNative(upstream.url, "/v1beta/models/gmx-2.5-flash:countTokens", {
      contents: [user("a b c")],
    });
    expect(count.json).toEqual({ totalTokens: 5, promptTokensDetails: [{ modality: "TEXT", tokenCount: 5 }] });
  });
});

describe("authentication", () => {
  it("requires x-goog-api-key or ?key= when apiKey is set", async () => {
    const guarded = await startFakeNativeServer({ apiKey: "upstream-secret" });
    try {
      const body = { contents: [user("hi")] };
      const path = "/v1beta/models/gmx-2.5-flash:generateContent";
      const missing = await callFakeNative(guarded.url, path, body);
      expect(missing.status).toBe(403);
      expect(missing.json.error.status).toBe("PERMISSION_DENIED");
      const wrong = await callFakeNative(guarded.url, path, body, { "x-goog-api-key": "nope" });
      expect(wrong.status).toBe(401);
      expect(wrong.json.error).toMatchObject({
        code: 401,
        message: "API key not valid. Please pass a valid API key.",
        status: "UNAUTHENTICATED",
      });
      expect((await callFakeNative(guarded.url, path, body, { "x-goog-api-key": "upstream-secret" })).status).toBe(200);
      expect((await callFakeNative(guarded.url, `${path}?key=upstream-secret`, body)).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});

describe("request record", () => {
  it("records method, path, query, headers, parsed body and time", async () => {
    const before = Date.now();
    await callFakeNative(
      upstream.url,
      "/v1beta/models/gmx-2.5-flash:streamGenerateContent?alt=sse&key=k",
      { contents: [user("hi")] },
      {
        "x-goog-api-key": "abc",
      },
    );
    expect(upstream.requests).toHaveLength(1);
    const [record] = upstream.requests;
    expect(record).toMatchObject({
      method: "POST",
      path: "/v1beta/models/gmx-2.5-flash:streamGenerateContent?alt=sse&key=k",
      query: { alt: "sse", key: "k" },
      body: { contents: [user("hi")] },
      aborted: false,
    });
    expect(record!.headers["x-goog-api-key"]).toBe("abc");
    expect(record!.receivedAt).toBeGreaterThanOrEqual(before);
  });
});
