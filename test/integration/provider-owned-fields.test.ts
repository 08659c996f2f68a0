import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();

/**
 * Fields whose values belong to the upstream provider (reasoning efforts, summary kinds, web search tool names) pass
 * through to OpenAI channels whatever value OpenAI accepts today; the native family maps the values it knows and
 * refuses the rest naming the field. Our own enums stay strict, and their error text lists `null` by name.
 */
describe.each(testDatabases)("provider-owned fields on $name", ({ database }) => {
  let openai: FakeUpstream;
  let native: FakeNativeUpstream;
  let gateway: TestGateway;
  let apiKey: string;

  const post = async (path: string, body: Record<string, unknown>) => {
    const response = await fetch(`${gateway.url}/v1${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  beforeAll(async () => {
    openai = await startFakeOpenaiServer({ apiKey: "openai-secret" });
    native = await startFakeNativeServer({ apiKey: "native-secret" });
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          { name: "openai", type: "openai", base_url: openai.url, key: "openai-secret", models: ["gpt-5-mini"] },
          {
            name: "native",
            type: "native",
            base_url: native.url,
            key: "native-secret",
            models: ["gmx-3-flash-preview"],
          },
        ],
        pricing: { "gpt-5-mini": { input: 1, output: 2 }, "gmx-3-flash-preview": { input: 1, output: 2 } },
      },
    });
    apiKey = (await createApiKey(gateway, { remainQuota: 1_000_000 })).key;
  });
  afterAll(async () => {
    await gateway.close();
    await openai.close();
    await native.close();
  });
  beforeEach(() => {
    openai.reset();
    native.reset();
  });

  it("passes Responses reasoning.effort minimal, summary concise and the web_search tool to an OpenAI channel", async () => {
    const answer = await post("/responses", {
      model: "gpt-5-mini",
      input: "hello",
      reasoning: { effort: "minimal", summary: "concise" },
      tools: [{ type: "web_search" }],
    });
    expect(answer.status).toBe(200);
    expect(openai.requests[0]!.body).toMatchObject({
      reasoning: { effort: "minimal", summary: "concise" },
      tools: [{ type: "web_search" }],
    });
  });

  it("passes the upstream's other built-in tools and tool choices to an OpenAI channel", async () => {
    const tools = [{ type: "code_interpreter", container: { type: "auto" } }, { type: "web_search" }];
    const answer = await post("/responses", {
      model: "gpt-5-mini",
      input: "hello",
      tools,
      tool_choice: { type: "web_search" },
    });
    expect(answer.status).toBe(200);
    expect(openai.requests[0]!.body).toMatchObject({ tools, tool_choice: { type: "web_search" } });
  });

  it("passes chat reasoning_effort xhigh and verbosity to an OpenAI channel", async () => {
    const answer = await post("/chat/completions", {
      model: "gpt-5-mini",
      messages: [{ role: "user", content: "hello" }],
      reasoning_effort: "xhigh",
      verbosity: "low",
    });
    expect(answer.status).toBe(200);
    expect(openai.requests[0]!.body).toMatchObject({ reasoning_effort: "xhigh", verbosity: "low" });
  });

  it("maps reasoning.effort minimal and the web_search tool on a native channel", async () => {
    const answer = await post("/responses", {
      model: "gmx-3-flash-preview",
      input: "hello",
      reasoning: { effort: "minimal", summary: "concise" },
      tools: [{ type: "web_search" }],
    });
    expect(answer.status).toBe(200);
    expect(native.requests[0]!.body).toMatchObject({
      tools: [{ nativeSearch: {} }],
      generationConfig: { thinkingConfig: { thinkingLevel: "MINIMAL", includeThoughts: true } },
    });
  });

  it.each([
    ["/responses", { input: "hello", reasoning: { effort: "xhigh" } }, "reasoning.effort"],
    ["/responses", { input: "hello", reasoning: { summary: "verbose" } }, "reasoning.summary"],
    ["/responses", { input: "hello", tools: [{ type: "code_interpreter" }] }, "tools[0].type"],
    [
      "/responses",
      { input: "hello", tools: [{ type: "web_search" }], tool_choice: { type: "web_search" } },
      "tool_choice",
    ],
    [
      "/chat/completions",
      { messages: [{ role: "user", content: "hello" }], reasoning_effort: "xhigh" },
      "reasoning_effort",
    ],
  ])("refuses on a native channel a value it cannot map (%s, %j) with a 400 naming %s", async (path, body, param) => {
    const answer = await post(path, { model: "gmx-3-flash-preview", ...body });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: "invalid_request_error", param });
    expect(answer.body.error.message).toContain(param);
    expect(native.requests).toHaveLength(0);
  });

  it("keeps the gateway's own enums strict, naming null in the allowed values instead of ending in a comma", async () => {
    const answer = await post("/responses", { model: "gpt-5-mini", input: "hello", truncation: "sometimes" });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe(
      "truncation must be equal to one of the allowed values: auto, disabled, null",
    );
    expect(openai.requests).toHaveLength(0);
  });
});
