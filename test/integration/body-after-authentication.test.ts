import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { maximumJsonValueCount } from "../../src/http/assert-json-body-bounds.js";
import { openDatabase } from "../../src/store/open-database.js";
import { createApiKey } from "../support/create-api-key.js";
import { sendRawRequest } from "../support/send-raw-request.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

// A body costs nothing before its key is checked, and an authenticated body's work is bounded by the spec's item
// limits and a count of its values taken before it is parsed.
const database = await openDatabase("sqlite::memory:");

interface EarlyAnswer {
  status: number;
  body: string;
  /** Body bytes the client had sent when the answer came (of the 19 MB it declared). */
  sentBodyBytes: number;
}

/**
 * Declares a 19 MB body, sends its first kilobyte, and then waits: a gateway that reads the body before checking
 * the key never answers; one that checks the key first answers while the client has sent almost nothing.
 */
function sendHeadersAndWait(url: string, path: string, headers: Record<string, string>): Promise<EarlyAnswer> {
  const { hostname, port } = new URL(url);
  const declaredLength = 19 * 1024 * 1024;
  const firstKilobyte = `{"model":"model-a","messages":[${"1,".repeat(500)}`;
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer to ${path} while its body was unsent`));
    }, 5000);
    socket.on("connect", () => {
      const head = Object.entries({ ...headers, "content-length": String(declaredLength), host: hostname })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("");
      socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n${firstKilobyte}`);
    });
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      const [head, body = ""] = received.split("\r\n\r\n");
      const length = Number(/content-length: (\d+)/i.exec(head ?? "")?.[1] ?? Number.NaN);
      if (body.length < length) return;
      clearTimeout(timer);
      socket.destroy();
      resolve({ status: Number(head!.split(" ")[1]), body, sentBodyBytes: firstKilobyte.length });
    });
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

describe("bodies after authentication, and bounded", () => {
  let openaiUpstream: FakeUpstream;
  let nativeUpstream: FakeNativeUpstream;
  let gateway: TestGateway;
  let apiKey: string;

  beforeAll(async () => {
    openaiUpstream = await startFakeOpenaiServer({ apiKey: "openai-secret" });
    nativeUpstream = await startFakeNativeServer({ apiKey: "native-secret" });
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "openai",
            type: "openai",
            base_url: openaiUpstream.url,
            key: "openai-secret",
            models: ["model-a", "embed-a"],
          },
          {
            name: "native",
            type: "native",
            base_url: nativeUpstream.url,
            key: "native-secret",
            models: ["gmx-2.5-flash"],
          },
        ],
        pricing: {
          "model-a": { input: 1, output: 2 },
          "embed-a": { input: 1 },
          "gmx-2.5-flash": { input: 1, output: 2 },
        },
      },
    });
    apiKey = (await createApiKey(gateway, { unlimitedQuota: true })).key;
  });
  afterAll(async () => {
    await gateway?.close();
    await openaiUpstream?.close();
    await nativeUpstream?.close();
    await database.close();
  });

  it("answers 401 to a huge body without a key before the client has sent it, on the fast lane and the full stack", async () => {
    const cases: Array<{ path: string; headers: Record<string, string>; envelope: string }> = [
      // Plain JSON on a hot operation: the fast lane.
      { path: "/v1/chat/completions", headers: { "content-type": "application/json" }, envelope: "openai" },
      { path: "/v1/responses", headers: { "content-type": "application/json" }, envelope: "openai" },
      // Another charset spelling, and operations off the fast lane: the Express stack.
      {
        path: "/v1/chat/completions",
        headers: { "content-type": "application/json; charset=latin1" },
        envelope: "openai",
      },
      { path: "/v1/images/generations", headers: { "content-type": "application/json" }, envelope: "openai" },
      {
        path: "/v1beta/models/gmx-2.5-flash:generateContent",
        headers: { "content-type": "application/json" },
        envelope: "native",
      },
      { path: "/api/token/", headers: { "content-type": "application/json" }, envelope: "management" },
      // Anthropic's Messages door, with the header Claude Code sends.
      {
        path: "/v1/messages",
        headers: { "content-type": "application/json", "x-api-key": "sk-not-a-real-key" },
        envelope: "anthropic",
      },
      // A wrong key is refused the same way.
      {
        path: "/v1/embeddings",
        headers: { "content-type": "application/json", authorization: "Bearer sk-not-a-real-key" },
        envelope: "openai",
      },
    ];
    for (const testCase of cases) {
      const answer = await sendHeadersAndWait(gateway.url, testCase.path, testCase.headers);
      expect(answer.status, testCase.path).toBe(401);
      expect(answer.sentBodyBytes).toBeLessThan(2048);
      const body = JSON.parse(answer.body) as Record<string, unknown>;
      if (testCase.envelope === "management") expect(body).toMatchObject({ success: false });
      else expect(body.error, testCase.path).toMatchObject({ message: expect.any(String) });
    }
  });

  it("refuses arrays past the spec's limits with a 400 naming the field, in each generation's envelope", async () => {
    const json = { "content-type": "application/json", authorization: `Bearer ${apiKey}` };
    const message = { role: "user", content: "hi" };
    const chat = await sendRawRequest(gateway.url, {
      path: "/v1/chat/completions",
      headers: json,
      body: JSON.stringify({ model: "model-a", messages: Array(10_001).fill(message) }),
    });
    expect(chat.status).toBe(400);
    expect(chat.json?.error).toMatchObject({ param: "messages", message: expect.stringMatching(/messages.*10000/) });

    const responses = await sendRawRequest(gateway.url, {
      path: "/v1/responses",
      headers: json,
      body: JSON.stringify({ model: "model-a", input: Array(10_001).fill(message) }),
    });
    expect(responses.status).toBe(400);
    expect(responses.json?.error).toMatchObject({ message: expect.stringMatching(/input.*10000/) });

    const native = await sendRawRequest(gateway.url, {
      path: "/v1beta/models/gmx-2.5-flash:generateContent",
      headers: { "content-type": "application/json", "x-goog-api-key": apiKey },
      body: JSON.stringify({ contents: Array(10_001).fill({ role: "user", parts: [{ text: "hi" }] }) }),
    });
    expect(native.status).toBe(400);
    expect(native.json?.error).toMatchObject({ code: 400, message: expect.stringMatching(/contents.*10000/) });
    expect(openaiUpstream.requests.length + nativeUpstream.requests.length).toBe(0);
  });

  it("refuses a body of more values than the limit before parsing it, with a 400 saying so", async () => {
    const tokens = `[${Array(maximumJsonValueCount + 1)
      .fill("7")
      .join(",")}]`;
    // The fast lane takes plain `application/json`; an extra media type parameter sends the same body through Express.
    for (const contentType of ["application/json", "application/json; charset=utf-8; profile=x"]) {
      const answer = await sendRawRequest(gateway.url, {
        path: "/v1/embeddings",
        headers: { "content-type": contentType, authorization: `Bearer ${apiKey}` },
        body: `{"model":"embed-a","input":${tokens}}`,
      });
      expect(answer.status, contentType).toBe(400);
      expect(answer.json?.error, contentType).toMatchObject({
        code: "json_too_large",
        message: expect.stringMatching(/too many values/),
      });
    }
  });
});
