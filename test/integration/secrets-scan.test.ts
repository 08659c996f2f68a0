import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { createWavFile } from "../../mocks/upstreams/native/create-wav-file.js";
import { openDatabase } from "../../src/store/open-database.js";
import { createApiKey } from "../support/create-api-key.js";
import { responseLeakFilePrefix, scanLogsForKeys } from "../support/scan-logs-for-keys.js";
import { type LeakyUpstream, leakyStatuses, startLeakyUpstream } from "../support/start-leaky-upstream.js";
import { type RawRequest, sendRawRequest } from "../support/send-raw-request.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

// The suite's last check (global-setup.ts) scans every log line and every recorded response finding; this makes
// sure the scanner itself sees both key forms and channel keys, and leaves ordinary lines alone.
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "secrets-scan-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

describe("scanLogsForKeys", () => {
  it("finds sk- keys, bare 48-character keys, upstream key shapes, channel keys and recorded response leaks", () => {
    const bare = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefghijkl";
    fs.writeFileSync(
      path.join(folder, "config-1.yaml"),
      YAML.stringify({ channels: [{ name: "c", key: "channel-secret-value" }] }),
    );
    fs.writeFileSync(
      path.join(folder, "gateway-1.log"),
      [
        '{"msg":"ordinary line","requestId":"req_0123456789abcdef"}',
        `{"msg":"leak sk-${bare}"}`,
        `{"msg":"bare ${bare}"}`,
        '{"msg":"upstream said channel-secret-value"}',
        '{"msg":"masked sk-AbCd**********ijkl"}',
        '{"msg":"Key given: AIzaSyB1c2D3e4F5g6H7i8J9k0LmNoPqRsTuVwX"}',
        '{"msg":"Incorrect API key provided: sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8t"}',
        '{"msg":"masked AIza**********TuVw"}',
      ].join("\n"),
    );
    fs.writeFileSync(path.join(folder, `${responseLeakFilePrefix}1.txt`), "GET /v1/models 200\n");
    expect(scanLogsForKeys(folder).sort()).toEqual([
      "gateway-1.log:2",
      "gateway-1.log:3",
      "gateway-1.log:4",
      "gateway-1.log:6",
      "gateway-1.log:7",
      `${responseLeakFilePrefix}1.txt: GET /v1/models 200`,
    ]);
  });
});

// The leaky upstream quotes the presented channel key back on every error status and in stream error events; the
// gateway runs at debug level, and every line it writes and every answer it gives must hold no channel key.
const channelKeys = {
  openaiProject: "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0fGh_Jk3lMn6oPq",
  anthropicStyle: "sk-ant-api03-Zy9xWv8uTs7rQp6oNm5lKj4iHg3fEd2cBa1-Xw0vUt9sRq8pOn7mLk6",
  bareFortyEight: "Qw3eRt5yUi7oPa9sDf1gHj3kLz5xCv7bNm9qWe1rTy3uIo5p",
  uuidStyle: "3f2b9c1e-7a4d-4b8e-9c0f-1a2b3c4d5e6f",
  plainWords: "corporate-gateway-upstream-secret-value",
} as const;
const googleKey = "AIzaSyB1c2D3e4F5g6H7i8J9k0LmNoPqRsTuVwX";
// A Claude account's key, on an `anthropic` channel (x-api-key upstream, Anthropic's error envelope back).
const claudeKey = "sk-ant-api03-Kq7mW2xR9pL4vN8tY3cF6hJ1sD5gB0zX-aE7uI2oP9kM4nQ8wT3yR6vL1cH5jF0bG-Xs9dZ2AA";

describe("an upstream that quotes its key back, on every surface", async () => {
  const database = await openDatabase("sqlite::memory:");
  // Its own folder: the scanner's check above plants leaks in the other one on purpose.
  const leakyFolder = fs.mkdtempSync(path.join(os.tmpdir(), "secrets-scan-leaky-"));
  const logFile = path.join(leakyFolder, "gateway-leaky.log");
  let upstream: LeakyUpstream;
  let gateway: TestGateway;
  let apiKey: string;
  /** Speech and transcription models are a closed list: each key shape has its own channel for them, in a group. */
  const audioKeys = new Map<string, string>();

  const openaiModels = (shape: string) => [...leakyStatuses.map((status) => `${shape}-${status}`), `${shape}-stream`];
  beforeAll(async () => {
    upstream = await startLeakyUpstream();
    const channels = [
      ...Object.entries(channelKeys).map(([shape, key]) => ({
        name: `leaky-${shape}`,
        type: "openai",
        base_url: upstream.url,
        key,
        models: openaiModels(shape),
      })),
      { name: "leaky-native", type: "native", base_url: upstream.url, key: googleKey, models: openaiModels("google") },
      {
        name: "leaky-claude",
        type: "anthropic",
        base_url: upstream.url,
        key: claudeKey,
        models: openaiModels("claude"),
      },
    ];
    const pricing: Record<string, unknown> = {};
    for (const channel of channels) for (const model of channel.models) pricing[model] = { input: 1, output: 2 };
    pricing["speech-1"] = { input: 1 };
    pricing["transcribe-1"] = { per_second: 0.0001 };
    for (const shape of Object.keys(channelKeys))
      for (const status of leakyStatuses) pricing[`${shape}-image-${status}`] = { per_image: 0.01 };
    for (const channel of channels.slice(0, -2)) {
      const shape = channel.name.slice("leaky-".length);
      channel.models.push(...leakyStatuses.map((status) => `${shape}-image-${status}`));
    }
    const audioChannels = Object.entries(channelKeys).map(([shape, key]) => ({
      name: `leaky-audio-${shape}`,
      type: "openai",
      base_url: upstream.url,
      key,
      models: ["speech-1", "transcribe-1"],
      groups: [shape],
    }));
    const groups = Object.fromEntries(Object.keys(channelKeys).map((shape) => [shape, { ratio: 1 }]));
    gateway = await startTestGateway({
      database,
      logFile,
      environment: { LOG_LEVEL: "debug" },
      configFile: {
        channels: [...channels, ...audioChannels],
        groups,
        pricing,
        relay: { cooldown_seconds: 0, max_attempts: 1 },
      },
    });
    // The scan below reads the channel keys from the configuration files in its folder.
    fs.writeFileSync(path.join(leakyFolder, "config-leaky.yaml"), YAML.stringify({ channels }));
    apiKey = (await createApiKey(gateway, { unlimitedQuota: true })).key;
    for (const shape of Object.keys(channelKeys))
      audioKeys.set(shape, (await createApiKey(gateway, { unlimitedQuota: true, group: shape })).key);
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
    await database.close();
    fs.rmSync(leakyFolder, { recursive: true, force: true });
  });

  /** Every request a client can make that reaches an upstream, on each shape's channel. */
  function requestsFor(shape: string, status: number | "stream"): RawRequest[] {
    const model = `${shape}-${status}`;
    const json = { "content-type": "application/json", authorization: `Bearer ${apiKey}` };
    const stream = status === "stream";
    const chat = { model, messages: [{ role: "user", content: "hi" }] };
    const messagesHeaders = {
      "content-type": "application/json",
      "x-api-key": apiKey,
      "anthropic-version": "2023-06-01",
    };
    const message = { model, max_tokens: 16, messages: [{ role: "user", content: "hi" }] };
    if (shape === "claude") {
      // A Claude channel: the Messages door passes through, the chat door translates, count_tokens asks Claude.
      const requests: RawRequest[] = [
        { path: "/v1/messages", headers: messagesHeaders, body: JSON.stringify({ ...message, stream }) },
        { path: "/v1/chat/completions", headers: json, body: JSON.stringify({ ...chat, stream }) },
      ];
      if (!stream)
        requests.push({
          path: "/v1/messages/count_tokens",
          headers: messagesHeaders,
          body: JSON.stringify({ model, messages: message.messages }),
        });
      return requests;
    }
    const requests: RawRequest[] = [
      { path: "/v1/chat/completions", headers: json, body: JSON.stringify({ ...chat, stream }) },
      { path: "/v1/responses", headers: json, body: JSON.stringify({ model, input: "hi", stream }) },
    ];
    if (shape !== "google")
      // Anthropic's Messages door, translated to chat completions on these OpenAI-style channels.
      requests.push({ path: "/v1/messages", headers: messagesHeaders, body: JSON.stringify({ ...message, stream }) });
    if (shape === "google") {
      const contents = JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] });
      const native = { "content-type": "application/json", "x-goog-api-key": apiKey };
      requests.push(
        stream
          ? { path: `/v1beta/models/${model}:streamGenerateContent?alt=sse`, headers: native, body: contents }
          : { path: `/v1beta/models/${model}:generateContent`, headers: native, body: contents },
      );
      if (!stream)
        requests.push({
          path: `/v1beta/models/${model}:embedContent`,
          headers: native,
          body: JSON.stringify({ content: { parts: [{ text: "hi" }] } }),
        });
      return requests;
    }
    if (stream) return requests;
    const boundary = "----leakyboundary";
    const wav = createWavFile(Buffer.alloc(32_000), 16_000);
    // The status rides in the file name and the speech input: the model name is one of the spec's.
    const multipart = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\ntranscribe-1\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="leaky-${status}.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
      ),
      wav,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    requests.push(
      { path: "/v1/embeddings", headers: json, body: JSON.stringify({ model, input: "hi" }) },
      {
        path: "/v1/images/generations",
        headers: json,
        body: JSON.stringify({ model: `${shape}-image-${status}`, prompt: "a cat" }),
      },
      {
        path: "/v1/audio/speech",
        headers: { ...json, authorization: `Bearer ${audioKeys.get(shape)}` },
        body: JSON.stringify({ model: "speech-1", input: `say leaky-${status}`, voice: "alloy" }),
      },
      {
        path: "/v1/audio/transcriptions",
        headers: {
          "content-type": `multipart/form-data; boundary=${boundary}`,
          authorization: `Bearer ${audioKeys.get(shape)}`,
        },
        body: multipart,
      },
    );
    return requests;
  }

  it("never passes a channel key of any shape to a client or a log line, at debug level", async () => {
    const allKeys = [...Object.values(channelKeys), googleKey, claudeKey];
    const shapes = [...Object.keys(channelKeys), "google", "claude"];
    let sent = 0;
    for (const shape of shapes) {
      for (const status of [...leakyStatuses, "stream" as const]) {
        for (const request of requestsFor(shape, status)) {
          const label = `${request.path} ${shape}-${status}`;
          const before = upstream.presentedKeys.length;
          const answer = await sendRawRequest(gateway.url, request);
          sent += 1;
          expect(upstream.presentedKeys.length, `${label} reached the upstream: ${answer.body}`).toBe(before + 1);
          if (status === "stream") expect(answer.status, `${label}: ${answer.body}`).toBe(200);
          else expect(answer.status, `${label}: ${answer.body}`).toBeGreaterThanOrEqual(400);
          for (const key of allKeys) {
            expect(answer.body, label).not.toContain(key);
            expect(answer.body, label).not.toContain(key.slice(6, -6));
          }
        }
      }
    }
    // Every request reached the leaky upstream with its channel's key, so every error path above was taken.
    expect(upstream.presentedKeys.length).toBe(sent);
    expect(new Set(upstream.presentedKeys)).toEqual(new Set(allKeys));

    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = fs.readFileSync(logFile, "utf8").split("\n").filter(Boolean);
    // The upstream 500s are server faults, logged at error level with the failure: the line that leaked before.
    expect(lines.some((line) => line.includes('"level":50') && line.includes("Upstream error (500)"))).toBe(true);
    for (const [index, line] of lines.entries()) {
      for (const key of allKeys) {
        expect(line, `log line ${index + 1}`).not.toContain(key);
        expect(line, `log line ${index + 1}`).not.toContain(key.slice(6, -6));
      }
    }
    expect(scanLogsForKeys(leakyFolder)).toEqual([]);
  });
});
