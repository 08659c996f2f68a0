import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { startFakeOpenaiServer } from "./start-fake-openai-server.js";
import { readJson } from "../shared/read-json.js";

let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeOpenaiServer();
});
afterAll(() => upstream.close());

function speak(body: unknown) {
  return fetch(`${upstream.url}/v1/audio/speech`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

function transcribe(path: string, fields: Record<string, string>, file?: { bytes: Buffer; name: string }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append("file", new Blob([file.bytes], { type: "audio/wav" }), file.name);
  return fetch(`${upstream.url}${path}`, { method: "POST", body: form });
}

describe("POST /v1/audio/speech", () => {
  it.each([
    ["mp3", "audio/mpeg", "ID3"],
    ["opus", "audio/opus", "OggS"],
    ["flac", "audio/flac", "fLaC"],
    ["wav", "audio/wav", "RIFF"],
  ])("answers %s with %s", async (format, contentType, magic) => {
    const response = await speak({ model: "speech-1", input: "hello there", voice: "alloy", response_format: format });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(contentType);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, magic.length).toString("latin1")).toBe(magic);
  });

  it("defaults to mp3 and sizes wav/pcm by words (0.1 s of 24 kHz 16-bit mono per word)", async () => {
    expect((await speak({ model: "speech-1", input: "x", voice: "nova" })).headers.get("content-type")).toBe(
      "audio/mpeg",
    );
    const pcm = await speak({ model: "speech-1", input: "one two three", voice: "nova", response_format: "pcm" });
    expect((await pcm.arrayBuffer()).byteLength).toBe(3 * 2400 * 2);
    const wav = Buffer.from(
      await (await speak({ model: "speech-1", input: "one", voice: "nova", response_format: "wav" })).arrayBuffer(),
    );
    expect(wav.readUInt32LE(24)).toBe(24_000);
    expect(wav.readUInt32LE(40)).toBe(4800);
  });

  it.each([
    [{ model: "speech-1", voice: "alloy" }, "input", "missing_required_parameter"],
    [{ model: "speech-1", input: "x".repeat(4097), voice: "alloy" }, "input", "string_above_max_length"],
    [{ model: "speech-1", input: "x", voice: "robot" }, "voice", "invalid_value"],
    [{ model: "speech-1", input: "x", voice: "alloy", response_format: "ogg" }, "response_format", "invalid_value"],
  ])("rejects %j", async (body, param, code) => {
    const response = await speak(body);
    expect(response.status).toBe(400);
    expect((await readJson(response)).error).toMatchObject({ param, code, type: "invalid_request_error" });
  });
});

describe("POST /v1/audio/transcriptions and /translations", () => {
  const file = { bytes: Buffer.alloc(40_000), name: "clip.wav" };

  it("answers json with text and duration usage, and records the raw multipart body", async () => {
    const response = await transcribe("/v1/audio/transcriptions", { model: "transcribe-1" }, file);
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({
      text: "Transcription of clip.wav (40000 bytes).",
      usage: { type: "duration", seconds: 2 },
    });
    const recorded = upstream.requests.at(-1);
    expect(Buffer.isBuffer(recorded?.body)).toBe(true);
    expect(recorded?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
  });

  it.each([
    ["text", "text/plain; charset=utf-8", "Transcription of clip.wav (40000 bytes).\n"],
    [
      "srt",
      "text/plain; charset=utf-8",
      "1\n00:00:00,000 --> 00:00:02,000\nTranscription of clip.wav (40000 bytes).\n\n",
    ],
    [
      "vtt",
      "text/plain; charset=utf-8",
      "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nTranscription of clip.wav (40000 bytes).\n\n",
    ],
  ])("renders response_format %s", async (format, contentType, expected) => {
    const response = await transcribe(
      "/v1/audio/transcriptions",
      { model: "transcribe-1", response_format: format },
      file,
    );
    expect(response.headers.get("content-type")).toBe(contentType);
    expect(await response.text()).toBe(expected);
  });

  it("translates with verbose_json", async () => {
    const response = await transcribe(
      "/v1/audio/translations",
      { model: "transcribe-1", response_format: "verbose_json" },
      file,
    );
    expect(await readJson(response)).toMatchObject({
      task: "translate",
      language: "english",
      duration: 2,
      text: "Translation of clip.wav (40000 bytes).",
      segments: [{ id: 0, start: 0, end: 2 }],
    });
  });

  it("requires file and model", async () => {
    const withoutFile = await transcribe("/v1/audio/transcriptions", { model: "transcribe-1" });
    expect(withoutFile.status).toBe(400);
    expect((await readJson(withoutFile)).error).toMatchObject({ param: "file", code: "missing_required_parameter" });
    const withoutModel = await transcribe("/v1/audio/transcriptions", {}, file);
    expect((await readJson(withoutModel)).error.message).toBe("you must provide a model parameter");
  });
});
