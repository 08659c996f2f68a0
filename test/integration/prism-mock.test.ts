import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFreePorts } from "../../contract-tests/find-free-ports.js";
import { startPrismMock, type PrismMock } from "../../mocks/prism/start-prism-mock.js";

// `npm run mock`: the four specs served by Prism behind one origin, as frontend teams and SDK users see it.
describe("Prism mock of the gateway", () => {
  let mock: PrismMock;
  beforeAll(async () => {
    mock = await startPrismMock({ port: 0, internalPorts: await findFreePorts(4), quiet: true });
  }, 90_000);
  afterAll(async () => mock?.close());

  async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
    const response = await fetch(`${mock.url}${path}`, {
      method,
      headers: {
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it("lists models on /v1/models", async () => {
    const answer = await call("GET", "/v1/models", { authorization: "Bearer sk-test" });
    expect(answer.status).toBe(200);
    expect(answer.body.object).toBe("list");
    expect(Array.isArray(answer.body.data)).toBe(true);
    expect((answer.body.data as Array<{ id: string }>)[0].id).toEqual(expect.any(String));
  });

  it("answers a chat completion with the documented example", async () => {
    const answer = await call(
      "POST",
      "/v1/chat/completions",
      { authorization: "Bearer sk-test" },
      { model: "gpt-4o-mini", messages: [{ role: "user", content: "Hello" }] },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.object).toBe("chat.completion");
    expect((answer.body.choices as Array<{ message: { role: string } }>)[0].message.role).toBe("assistant");
  });

  it("answers the token list of the management API", async () => {
    const answer = await call("GET", "/api/token/", { authorization: "Bearer user-access-token" });
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(true);
    expect(Array.isArray((answer.body.data as { items: unknown[] }).items)).toBe(true);
  });

  it("answers native generateContent", async () => {
    const answer = await call(
      "POST",
      "/v1beta/models/gmx-3.5-flash:generateContent",
      { "x-goog-api-key": "sk-test" },
      { contents: [{ role: "user", parts: [{ text: "Hi" }] }] },
    );
    expect(answer.status).toBe(200);
    const candidates = answer.body.candidates as Array<{ content: { parts: unknown[] } }>;
    expect(candidates[0].content.parts.length).toBeGreaterThan(0);
    expect(answer.body.usageMetadata).toEqual(expect.objectContaining({ promptTokenCount: expect.any(Number) }));
  });

  it("serves the official openai SDK (non-streaming chat)", async () => {
    const client = new OpenAI({ apiKey: "sk-test", baseURL: `${mock.url}/v1`, maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Hello" }],
    });
    expect(completion.object).toBe("chat.completion");
    expect(completion.choices[0].message.content).toEqual(expect.any(String));
  });

  it("serves the official Anthropic SDK (a message with the documented example)", async () => {
    const client = new Anthropic({ apiKey: "sk-test", baseURL: mock.url, maxRetries: 0 });
    const message = await client.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 64,
      messages: [{ role: "user", content: "Hello" }],
    });
    expect(message.type).toBe("message");
    expect(message.content[0]).toMatchObject({ type: "text", text: expect.any(String) });
  });
});
