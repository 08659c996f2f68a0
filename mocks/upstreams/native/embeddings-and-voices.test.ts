import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { callFakeNative } from "./call-fake-native.js";
import { computeEmbeddingValues } from "./compute-embedding-values.js";
import type { FakeNativeUpstream } from "./fake-native-types.js";
import { startFakeNativeServer } from "./start-fake-native-server.js";

let upstream: FakeNativeUpstream;
beforeAll(async () => {
  upstream = await startFakeNativeServer();
});
afterAll(() => upstream.close());
beforeEach(() => upstream.reset());

describe("embeddings", () => {
  it("embedContent returns 8 deterministic values by default and honours outputDimensionality", async () => {
    const path = "/v1beta/models/gmx-embedding-001:embedContent";
    const first = await callFakeNative(upstream.url, path, { content: { parts: [{ text: "hello" }] } });
    expect(first.json).toEqual({ embedding: { values: computeEmbeddingValues("hello") } });
    expect(first.json.embedding.values).toHaveLength(8);
    expect((await callFakeNative(upstream.url, path, { content: { parts: [{ text: "hello" }] } })).json).toEqual(
      first.json,
    );
    const wide = await callFakeNative(upstream.url, path, {
      model: "models/gmx-embedding-001",
      content: { parts: [{ text: "hello" }] },
      outputDimensionality: 20,
    });
    expect(wide.json.embedding.values).toHaveLength(20);
    expect(wide.json.embedding.values.slice(0, 8)).toEqual(first.json.embedding.values);
    expect(wide.json.embedding.values.every((value: number) => value >= -1 && value <= 1)).toBe(true);
  });

  it("batchEmbedContents keeps request order and checks each request's model", async () => {
    const path = "/v1beta/models/gmx-embedding-001:batchEmbedContents";
    const { json } = await callFakeNative(upstream.url, path, {
      requests: [
        { model: "models/gmx-embedding-001", content: { parts: [{ text: "a" }] } },
        { content: { parts: [{ text: "b" }] }, outputDimensionality: 3 },
      ],
    });
    expect(json).toEqual({
      embeddings: [{ values: computeEmbeddingValues("a") }, { values: computeEmbeddingValues("b", 3) }],
    });
    const mismatch = await callFakeNative(upstream.url, path, {
      requests: [{ model: "models/gmx-other", content: { parts: [{ text: "a" }] } }],
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json).toEqual({
      error: {
        code: 400,
        message: 'requests[0]: model must be "models/gmx-embedding-001" (the model in the URL), got "models/gmx-other"',
        status: "INVALID_ARGUMENT",
      },
    });
    expect((await callFakeNative(upstream.url, path, { requests: [] })).json.error.message).toBe(
      "requests is required",
    );
  });

  it("rejects an embedContent without content", async () => {
    const { status, json } = await callFakeNative(upstream.url, "/v1beta/models/gmx-embedding-001:embedContent", {});
    expect(status).toBe(400);
    expect(json.error.message).toBe("content is required");
  });
});

describe("GET /v1beta/voices", () => {
  const voices = (query: string) => callFakeNative(upstream.url, `/v1beta/voices?${query}`);

  it("requires model", async () => {
    const { status, json } = await voices("");
    expect(status).toBe(400);
    expect(json).toEqual({ error: { code: 400, message: "model is required", status: "INVALID_ARGUMENT" } });
    expect((await voices("model=gpt-4o-tts")).status).toBe(404);
  });

  it("pages 60 voices by 50 by default with an opaque token; next_page_token is omitted on the last page", async () => {
    const first = await voices("model=gmx-3.8-flash-tts");
    expect(first.json.voices).toHaveLength(50);
    expect(first.json.voices[0]).toEqual({
      id: "en-US-Zephyr",
      type: "VOICE_TYPE_PREBUILT",
      display_name: "Zephyr",
      language_code: "en-US",
      region_code: "US",
      accent: "American",
      persona: "Bright",
      context: "Content & Media",
      gender: "female",
      pitch: "PITCH_HIGH",
      description: "Bright female voice with an American accent, suited to Content & Media.",
    });
    const second = await voices(`model=gmx-3.8-flash-tts&page_token=${first.json.next_page_token}`);
    expect(second.json.voices).toHaveLength(10);
    expect(second.json.next_page_token).toBeUndefined();
    const ids = [...first.json.voices, ...second.json.voices].map((voice: { id: string }) => voice.id);
    expect(new Set(ids).size).toBe(60);
    const changed = await voices(`model=gmx-3.8-flash-tts&gender=male&page_token=${first.json.next_page_token}`);
    expect(changed.status).toBe(400);
    expect((await voices("model=gmx-3.8-flash-tts&page_token=garbage")).status).toBe(400);
  });

  it("walks small pages to the end", async () => {
    const seen: string[] = [];
    let token = "";
    for (let page = 0; page < 10; page += 1) {
      const { json } = await voices(
        `model=gmx-3.8-flash-tts&language_code=en-US&page_size=2${token ? `&page_token=${token}` : ""}`,
      );
      seen.push(...json.voices.map((voice: { id: string }) => voice.id));
      if (!json.next_page_token) break;
      token = json.next_page_token;
    }
    // voice i has locale i mod 12 and speaker i mod 30: en-US holds voices 0, 12, 24, 36 and 48
    expect(seen).toEqual(["en-US-Zephyr", "en-US-Umbriel", "en-US-Achird", "en-US-Orus", "en-US-Laomedeia"]);
  });

  it("filters by repeated language_code (full or language only), gender, pitch, context, type and search", async () => {
    const languages = await voices("model=gmx-3.8-flash-tts&language_code=de-DE&language_code=fr");
    expect(new Set(languages.json.voices.map((voice: { language_code: string }) => voice.language_code))).toEqual(
      new Set(["de-DE", "fr-FR"]),
    );
    expect(languages.json.voices).toHaveLength(10);
    const english = await voices("model=gmx-3.8-flash-tts&language_code=en");
    expect(english.json.voices).toHaveLength(15);

    const female = await voices("model=gmx-3.8-flash-tts&gender=female&pitch=high");
    expect(female.json.voices.length).toBeGreaterThan(0);
    expect(
      female.json.voices.every(
        (voice: { gender: string; pitch: string }) => voice.gender === "female" && voice.pitch === "PITCH_HIGH",
      ),
    ).toBe(true);

    const context = await voices(`model=gmx-3.8-flash-tts&context=${encodeURIComponent("Wellness & Culture")}`);
    expect(context.json.voices).toHaveLength(10);
    expect(context.json.voices.every((voice: { context: string }) => voice.context === "Wellness & Culture")).toBe(
      true,
    );

    expect((await voices("model=gmx-3.8-flash-tts&type=prebuilt")).json.voices).toHaveLength(50);
    expect((await voices("model=gmx-3.8-flash-tts&type=custom")).json.voices).toHaveLength(0);

    const search = await voices("model=gmx-3.8-flash-tts&search=kore");
    // Matches the name Kore and the "Seoul Korean" accent in descriptions.
    expect(search.json.voices.map((voice: { id: string }) => voice.id)).toEqual([
      "de-DE-Kore",
      "ko-KR-Autonoe",
      "ko-KR-Schedar",
      "ko-KR-Kore",
      "ko-KR-Erinome",
      "ko-KR-Sadachbia",
    ]);
    const words = await voices("model=gmx-3.8-flash-tts&search=FIRM%20american");
    expect(words.json.voices.map((voice: { id: string }) => voice.id)).toEqual(["en-US-Orus"]);
  });

  it("rejects invalid filter values", async () => {
    expect((await voices("model=gmx-3.8-flash-tts&gender=other")).status).toBe(400);
    expect((await voices("model=gmx-3.8-flash-tts&pitch=shrill")).status).toBe(400);
    expect((await voices("model=gmx-3.8-flash-tts&context=Sports")).status).toBe(400);
    expect((await voices("model=gmx-3.8-flash-tts&page_size=0")).status).toBe(400);
  });
});
