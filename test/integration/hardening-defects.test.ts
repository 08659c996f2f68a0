import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTinyPng } from "../../mocks/upstreams/native/create-tiny-png.js";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { scanLogsForKeys } from "../support/scan-logs-for-keys.js";

// Issue 17's defects, each reproduced as an attacker or an unlucky operator would meet it: no input makes a 500,
// no upstream secret is passed on, and client mistakes stay short and quiet in the log.
const testDatabases = await openTestDatabases();
// Its own log folder: the tests read their log lines back, and the shared one is emptied by every run's setup.
const logFolder = fs.mkdtempSync(path.join(os.tmpdir(), "hardening-defects-logs-"));
afterAll(() => {
  // The suite's secrets scan does not see this folder: the same scan runs here.
  expect(scanLogsForKeys(logFolder)).toEqual([]);
  fs.rmSync(logFolder, { recursive: true, force: true });
});

interface RawAnswer {
  status: number;
  body: string;
  json: Record<string, unknown> | undefined;
}

function parseBody(text: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** A raw HTTP exchange over node:http, so nothing in a client library tidies the request or hides the answer. */
function sendRaw(
  url: string,
  request: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer | string },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      `${url}${request.path}`,
      { method: request.method ?? "POST", headers: request.headers },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
        incoming.on("end", () => {
          const body = Buffer.concat(chunks).toString("utf8");
          resolve({ status: incoming.statusCode ?? 0, body, json: parseBody(body) });
        });
        incoming.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(request.body);
  });
}

/** The message of an error answer in any of the three envelopes. */
function errorMessage(answer: RawAnswer): string {
  const error = answer.json?.error as { message?: string } | undefined;
  return String(error?.message ?? answer.json?.message ?? "");
}

/** Lines of the log file written after `start` that contain `text`, once `count` of them are there (pino writes async). */
async function waitForLogLines(file: string, start: number, text: string, count: number): Promise<string[]> {
  let lines: string[] = [];
  for (let attempt = 0; attempt < 50; attempt++) {
    if (fs.existsSync(file)) {
      lines = fs
        .readFileSync(file)
        .subarray(start)
        .toString("utf8")
        .split("\n")
        .filter((line) => line.includes(text));
      if (lines.length >= count) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return lines;
}

function nestedObject(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

/** An echoing upstream that answers every request 401 with the presented key in the message, as some do. */
async function startKeyEchoingUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const presented = (request.headers.authorization ?? "").replace(/^Bearer /, "");
    response.writeHead(401, { "content-type": "application/json" });
    response.end(
      JSON.stringify({
        error: { message: `Incorrect API key provided: ${presented}.`, type: "invalid_request_error" },
      }),
    );
  });
  server.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const echoedChannelKey = "sk-channelsecretABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcd";

describe.each(testDatabases)("issue 17 defects on $name", ({ database }) => {
  let openaiUpstream: FakeUpstream;
  let nativeUpstream: FakeNativeUpstream;
  let echoingUpstream: { url: string; close(): Promise<void> };
  let gateway: TestGateway;
  let key: string;
  const json = (extra: Record<string, string> = {}) => ({
    "content-type": "application/json",
    authorization: `Bearer ${key}`,
    ...extra,
  });

  beforeAll(async () => {
    openaiUpstream = await startFakeOpenaiServer({ apiKey: "openai-secret" });
    nativeUpstream = await startFakeNativeServer({ apiKey: "native-secret" });
    echoingUpstream = await startKeyEchoingUpstream();
    gateway = await startTestGateway({
      database,
      logFile: path.join(logFolder, `gateway-${database.dialect}.log`),
      configFile: {
        channels: [
          {
            name: "openai",
            type: "openai",
            base_url: openaiUpstream.url,
            key: "openai-secret",
            models: ["gpt-4o-mini", "text-embedding-3-small", "transcribe-1", "img-c-2"],
          },
          {
            name: "native",
            type: "native",
            base_url: nativeUpstream.url,
            key: "native-secret",
            models: ["gmx-2.5-flash", "gmx-2.5-flash-image"],
          },
          {
            name: "echoing",
            type: "openai",
            base_url: echoingUpstream.url,
            key: echoedChannelKey,
            models: ["echo-model"],
          },
        ],
        pricing: {
          "gpt-4o-mini": { input: 1, output: 2 },
          "text-embedding-3-small": { input: 1 },
          "transcribe-1": { per_second: 0.0001 },
          "img-c-2": { per_image: 0.02 },
          "gmx-2.5-flash": { input: 1, output: 2 },
          "gmx-2.5-flash-image": { per_image: 0.04 },
          "echo-model": { input: 1, output: 2 },
        },
      },
    });
    key = (await createApiKey(gateway, { unlimitedQuota: true })).key;
  });

  afterAll(async () => {
    await gateway?.close();
    await openaiUpstream?.close();
    await nativeUpstream?.close();
    await echoingUpstream?.close();
  });

  it("defect 1: JSON nested 10,000 deep answers 400 naming the depth limit on every JSON body", async () => {
    const deep = nestedObject(10_000);
    const cases = [
      {
        path: "/v1/chat/completions",
        body: `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"x":${deep}}`,
        envelope: "openai",
      },
      { path: "/v1/responses", body: `{"model":"gpt-4o-mini","input":"hi","x":${deep}}`, envelope: "openai" },
      { path: "/v1/images/generations", body: `{"model":"img-c-2","prompt":"a","x":${deep}}`, envelope: "openai" },
      { path: "/v1/embeddings", body: `{"model":"text-embedding-3-small","input":${deep}}`, envelope: "openai" },
      {
        path: "/v1beta/models/gmx-2.5-flash:generateContent",
        body: `{"contents":[{"parts":[{"text":"hi"}]}],"x":${deep}}`,
        envelope: "native",
      },
      { path: "/api/token/", body: `{"name":"n","x":${deep}}`, envelope: "management" },
    ];
    for (const testCase of cases) {
      const headers =
        testCase.envelope === "management" ? json({ authorization: `Bearer ${gateway.adminToken}` }) : json();
      const answer = await sendRaw(gateway.url, { path: testCase.path, headers, body: testCase.body });
      expect(answer.status, testCase.path).toBe(400);
      const message = errorMessage(answer);
      expect(message, testCase.path).toMatch(/nest/i);
      expect(message, testCase.path).toContain("64");
    }
  });

  it("defect 2: a UTF-8 byte-order mark before valid JSON gets the same answer on the fast lane and Express", async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const cases = [
      { path: "/v1/chat/completions", body: { model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] } },
      { path: "/v1/responses", body: { model: "gpt-4o-mini", input: "hi" } },
      { path: "/v1/embeddings", body: { model: "text-embedding-3-small", input: "hi" } },
    ];
    for (const testCase of cases) {
      const body = Buffer.concat([bom, Buffer.from(JSON.stringify(testCase.body))]);
      // The fast lane takes plain `application/json`; a charset it does not list sends the same bytes to Express.
      const fast = await sendRaw(gateway.url, { path: testCase.path, headers: json(), body });
      const viaExpress = await sendRaw(gateway.url, {
        path: testCase.path,
        headers: json({ "content-type": "application/json; charset=UTF-8" }),
        body,
      });
      expect(fast.status, testCase.path).toBe(viaExpress.status);
      expect(fast.status, testCase.path).toBeLessThan(500);
    }
  });

  it("defect 3: broken multipart answers 400 in the envelope on transcriptions, translations and image edits", async () => {
    const boundary = "----gatewayboundary";
    const audioPart = (name = "file", filename = "a.wav") =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: audio/wav\r\n\r\nRIFF....WAVE\r\n`;
    const modelPart = `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\ntranscribe-1\r\n`;
    const bodies: Array<{ name: string; body: Buffer; boundary?: string }> = [
      { name: "truncated", body: Buffer.from(`${modelPart}${audioPart()}`.slice(0, -20)) },
      { name: "wrong boundary", body: Buffer.from(`${modelPart}${audioPart()}--${boundary}--\r\n`), boundary: "other" },
      { name: "no CRLF", body: Buffer.from(`${modelPart}${audioPart()}--${boundary}--`.replaceAll("\r\n", "\n")) },
      { name: "binary garbage", body: Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 7919) % 256)) },
      {
        name: "1 MB field name",
        body: Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${"n".repeat(1024 * 1024)}"\r\n\r\nx\r\n--${boundary}--\r\n`,
        ),
      },
      {
        name: "quote in filename",
        body: Buffer.from(`${modelPart}${audioPart("file", 'a"b.wav')}--${boundary}--\r\n`),
      },
      {
        name: "NUL in filename",
        body: Buffer.from(`${modelPart}${audioPart("file", "a\u0000b.wav")}--${boundary}--\r\n`),
      },
      { name: "no closing boundary", body: Buffer.from(`${modelPart}${audioPart()}`) },
    ];
    for (const path of ["/v1/audio/transcriptions", "/v1/audio/translations", "/v1/images/edits"]) {
      for (const testCase of bodies) {
        const answer = await sendRaw(gateway.url, {
          path,
          headers: {
            authorization: `Bearer ${key}`,
            "content-type": `multipart/form-data; boundary=${testCase.boundary ?? boundary}`,
          },
          body: testCase.body,
        });
        expect(answer.status, `${path} ${testCase.name}`).toBeGreaterThanOrEqual(400);
        expect(answer.status, `${path} ${testCase.name}: ${answer.body}`).toBeLessThan(500);
        expect(answer.json?.error, `${path} ${testCase.name}`).toMatchObject({ type: expect.any(String) });
      }
    }
  });

  it("defect 4: ten concurrent creations of one username give one 200 and nine clear refusals", async () => {
    const username = `same-${Date.now().toString(36)}`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        sendRaw(gateway.url, {
          path: "/api/user/",
          headers: json({ authorization: `Bearer ${gateway.adminToken}` }),
          body: JSON.stringify({ username, password: "password-123456" }),
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(9);
    for (const answer of answers.filter((candidate) => candidate.status === 409)) {
      expect(answer.json).toEqual({ success: false, message: `Username ${username} is already taken.` });
    }
  });

  it("defect 5: a page number past any sane maximum is a 400 naming p on the list operations", async () => {
    for (const path of ["/api/token/", "/api/token/search?keyword=x&", "/api/channel/", "/api/log/self"]) {
      const separator = path.endsWith("&") ? "" : "?";
      const answer = await sendRaw(gateway.url, {
        method: "GET",
        path: `${path}${separator}p=99999999999999999999`,
        headers: { authorization: `Bearer ${gateway.adminToken}` },
      });
      expect(answer.status, path).toBe(400);
      expect(answer.json?.success, path).toBe(false);
      expect(answer.json?.message, path).toMatch(/\bp\b/);
    }
  });

  it("defect 6: an unknown model is a short, quiet client mistake; native generation answers 404 NOT_FOUND", async () => {
    const hugeModel = `m${"x".repeat(1024 * 1024)}`;
    const logFile = path.join(logFolder, `gateway-${database.dialect}.log`);
    const logStart = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
    const chat = await sendRaw(gateway.url, {
      path: "/v1/chat/completions",
      headers: json(),
      body: JSON.stringify({ model: hugeModel, messages: [{ role: "user", content: "hi" }] }),
    });
    // The OpenAI-style answer is a 404 model_not_found with new-api's message, but short.
    expect(chat.status).toBe(404);
    expect(chat.json?.error).toMatchObject({ code: "model_not_found" });
    expect(chat.body.length).toBeLessThan(1000);
    expect(errorMessage(chat)).toContain("mxxxx");
    expect(errorMessage(chat)).toContain("1048577 characters");

    const native = await sendRaw(gateway.url, {
      path: `/v1beta/models/no-such-model:generateContent`,
      headers: json(),
      body: JSON.stringify({ contents: [{ parts: [{ text: "hi" }] }] }),
    });
    expect(native.status).toBe(404);
    expect(native.json?.error).toMatchObject({ code: 404, status: "NOT_FOUND" });
    const nativeHuge = await sendRaw(gateway.url, {
      path: `/v1beta/models/${"y".repeat(6000)}:generateContent`,
      headers: json(),
      body: JSON.stringify({ contents: [{ parts: [{ text: "hi" }] }] }),
    });
    expect(nativeHuge.status).toBe(404);
    expect(nativeHuge.body.length).toBeLessThan(1000);

    // In the log: one short info line each, no stack.
    const mentions = await waitForLogLines(logFile, logStart, "no available channel for model", 3);
    expect(mentions.length).toBeGreaterThanOrEqual(3);
    for (const line of mentions) {
      expect(line.length).toBeLessThan(2000);
      expect(JSON.parse(line)).toMatchObject({ level: 30 });
      expect(line).not.toContain('"stack"');
    }
  });

  it("defect 7: an upstream that echoes its key shows neither the key nor anything key-shaped", async () => {
    const logFile = path.join(logFolder, `gateway-${database.dialect}.log`);
    const logStart = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
    const answer = await sendRaw(gateway.url, {
      path: "/v1/chat/completions",
      headers: json(),
      body: JSON.stringify({ model: "echo-model", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.body).not.toContain(echoedChannelKey);
    expect(answer.body).not.toContain(echoedChannelKey.slice(3));
    expect(answer.body).not.toMatch(/[A-Za-z0-9]{40}/);
    const lines = await waitForLogLines(logFile, logStart, "Incorrect API key provided", 1);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toContain(echoedChannelKey.slice(8, 40));
  });

  it("defect 10: a 20 KB query string is answered in the generation's envelope", async () => {
    const query = `x=${"a".repeat(20 * 1024)}`;
    const openai = await sendRaw(gateway.url, { method: "GET", path: `/v1/models?${query}`, headers: json() });
    expect(openai.status).toBe(431);
    expect(openai.json?.error).toMatchObject({ type: expect.any(String), code: expect.any(String) });
    const management = await sendRaw(gateway.url, { method: "GET", path: `/api/token/?${query}` });
    expect(management.status).toBe(431);
    expect(management.json).toMatchObject({ success: false, message: expect.any(String) });
    const native = await sendRaw(gateway.url, { method: "GET", path: `/v1beta/models?${query}` });
    expect(native.status).toBe(431);
    expect(native.json?.error).toMatchObject({ code: 431, status: expect.any(String) });
  });

  it("defect 11: a data: URI whose bytes do not match its declared media type is refused before the upstream", async () => {
    const html = Buffer.from("<!doctype html><html><body>hello</body></html>").toString("base64");
    const before = nativeUpstream.requests.length;
    const answer = await sendRaw(gateway.url, {
      path: "/v1/chat/completions",
      headers: json(),
      body: JSON.stringify({
        model: "gmx-2.5-flash",
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "what is this" },
              { type: "image_url", image_url: { url: `data:image/png;base64,${html}` } },
            ],
          },
        ],
      }),
    });
    expect(answer.status).toBe(400);
    expect(errorMessage(answer)).toMatch(/image\/png/);
    expect(nativeUpstream.requests.length).toBe(before);

    const png = createTinyPng(1, 1, [1, 2, 3]).toString("base64");
    const accepted = await sendRaw(gateway.url, {
      path: "/v1/chat/completions",
      headers: json(),
      body: JSON.stringify({
        model: "gmx-2.5-flash",
        messages: [
          { role: "user", content: [{ type: "image_url", image_url: { url: `data:image/png;base64,${png}` } }] },
        ],
      }),
    });
    expect(accepted.status).toBe(200);

    const huge = await sendRaw(gateway.url, {
      path: "/v1/embeddings",
      headers: json(),
      body: JSON.stringify({ model: "text-embedding-3-small", input: "hi", dimensions: 1e20 }),
    });
    expect(huge.status).toBe(400);
    expect(errorMessage(huge)).toContain("dimensions");
  });
});
