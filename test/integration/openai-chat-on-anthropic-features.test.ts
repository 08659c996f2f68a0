import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeUpstream,
  startFakeAnthropicServer,
} from "../../mocks/upstreams/anthropic/start-fake-anthropic-server.js";
import { startFakeOpenaiServer } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { openDatabase } from "../../src/store/open-database.js";
import type { GatewayDatabase } from "../../src/store/gateway-database.js";
import { createApiKey } from "../support/create-api-key.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const weatherTool = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Current weather of a city.",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

const citySchema = {
  type: "json_schema" as const,
  json_schema: {
    name: "city_answer",
    schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

type ClaudeThinkingBlock = { type: string; thinking?: string; signature?: string; data?: string };
type ExtraContent = { anthropic?: { thinking_blocks?: ClaudeThinkingBlock[] } };

/** Chat completions' newer features on a Claude channel, through the official openai SDK. */
describe("chat completions on a Claude channel: formats, the thinking switch, signed thinking and beta headers", () => {
  let database: GatewayDatabase;
  let claude: FakeUpstream;
  let openaiUpstream: FakeUpstream;
  let gateway: TestGateway;
  let client: OpenAI;

  beforeAll(async () => {
    database = await openDatabase("sqlite::memory:");
    claude = await startFakeAnthropicServer({ apiKey: "sk-ant-upstream-secret" });
    openaiUpstream = await startFakeOpenaiServer();
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "claude",
            type: "anthropic",
            base_url: claude.url,
            key: "sk-ant-upstream-secret",
            models: ["claude-a"],
          },
          { name: "openai", type: "openai", base_url: openaiUpstream.url, key: "sk-openai-side", models: ["gpt-a"] },
        ],
        pricing: { "claude-a": { input: 2, output: 4 }, "gpt-a": { input: 1, output: 1 } },
      },
    });
    const created = await createApiKey(gateway, { unlimitedQuota: true });
    client = new OpenAI({ apiKey: created.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway.close();
    await claude.close();
    await openaiUpstream.close();
    await database.close();
  });
  beforeEach(() => {
    claude.reset();
    openaiUpstream.reset();
  });

  it("answers a json_schema format through a forced tool: the tool input is the content, finish_reason stop", async () => {
    const completion = await client.chat.completions.create({
      model: "claude-a",
      messages: [{ role: "user", content: "Paris" }],
      response_format: citySchema,
    });
    expect(claude.requests[0]!.body).toMatchObject({
      tools: [
        {
          name: "city_answer",
          description: "Answer with JSON that follows the city_answer schema.",
          input_schema: citySchema.json_schema.schema,
        },
      ],
      tool_choice: { type: "tool", name: "city_answer" },
    });
    expect(completion.choices[0]!.finish_reason).toBe("stop");
    expect(completion.choices[0]!.message.tool_calls).toBeUndefined();
    expect(JSON.parse(completion.choices[0]!.message.content!)).toEqual({ city: "Paris" });
  });

  it("streams a json_object format as content deltas that join into the JSON, finishing with stop", async () => {
    const stream = await client.chat.completions.create({
      model: "claude-a",
      messages: [{ role: "user", content: '[tool:json_object {"city": "Rome", "days": 3}]' }],
      response_format: { type: "json_object" },
      stream: true,
    });
    let content = "";
    let finishReason: string | null = null;
    let toolCalls = 0;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? "";
      toolCalls += chunk.choices[0]?.delta.tool_calls?.length ?? 0;
      finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
    }
    expect(claude.requests[0]!.body).toMatchObject({ tool_choice: { type: "tool", name: "json_object" } });
    expect(JSON.parse(content)).toEqual({ city: "Rome", days: 3 });
    expect(toolCalls).toBe(0);
    expect(finishReason).toBe("stop");
  });

  it("lets Claude call a client tool or answer in the format when both are offered", async () => {
    const completion = await client.chat.completions.create({
      model: "claude-a",
      messages: [{ role: "user", content: "Paris" }],
      tools: [weatherTool],
      response_format: citySchema,
    });
    expect(claude.requests[0]!.body).toMatchObject({ tool_choice: { type: "any" } });
    expect((claude.requests[0]!.body as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toEqual([
      "get_weather",
      "city_answer",
    ]);
    expect(completion.choices[0]!.finish_reason).toBe("tool_calls");
  });

  it("refuses a format with thinking on, naming response_format, before any upstream call", async () => {
    const error = await client.chat.completions
      .create({
        model: "claude-a",
        messages: [{ role: "user", content: "Paris" }],
        response_format: citySchema,
        reasoning_effort: "low",
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("response_format");
    expect(claude.requests).toHaveLength(0);
  });

  it("maps the chat thinking switch to Claude's budget: its own budget_tokens, the default, and disabled over reasoning_effort", async () => {
    const create = (thinking: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      client.chat.completions.create({
        model: "claude-a",
        messages: [{ role: "user", content: "Paris" }],
        max_tokens: 1000,
        thinking,
        ...extra,
      } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const withBudget = await create({ type: "enabled", budget_tokens: 3000 });
    expect(claude.requests[0]!.body).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 3000 },
      max_tokens: 3000 + 1000,
    });
    expect((withBudget.choices[0]!.message as { reasoning_content?: string }).reasoning_content).toBe(
      "Thinking about: Paris",
    );
    await create({ type: "enabled" });
    expect(claude.requests[1]!.body).toMatchObject({ thinking: { type: "enabled", budget_tokens: 2048 } });
    await create({ type: "disabled" }, { reasoning_effort: "high" });
    expect((claude.requests[2]!.body as { thinking?: unknown }).thinking).toBeUndefined();
    const tooSmall = await create({ type: "enabled", budget_tokens: 100 }).catch((caught: unknown) => caught);
    expect(tooSmall).toBeInstanceOf(OpenAI.BadRequestError);
    expect((tooSmall as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("thinking.budget_tokens");
    expect(claude.requests).toHaveLength(3);
  });

  it("carries the signed thinking through a tool loop with thinking on, in JSON and in a stream", async () => {
    const first = await client.chat.completions.create({
      model: "claude-a",
      messages: [{ role: "user", content: "Paris" }],
      tools: [weatherTool],
      thinking: { type: "enabled", budget_tokens: 1024 },
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const answer = first.choices[0]!.message as OpenAI.ChatCompletionMessage & { extra_content?: ExtraContent };
    expect(first.choices[0]!.finish_reason).toBe("tool_calls");
    const blocks = answer.extra_content?.anthropic?.thinking_blocks;
    expect(blocks).toEqual([
      { type: "thinking", thinking: "Thinking about: Paris", signature: expect.stringMatching(/^EqSig_/) },
    ]);
    const toolCall = answer.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;

    // The client appends the message it got, as the SDKs' tool loops do; thinking stays on for the next turn.
    const stream = await client.chat.completions.create({
      model: "claude-a",
      tools: [weatherTool],
      thinking: { type: "enabled", budget_tokens: 1024 },
      stream: true,
      messages: [
        { role: "user", content: "Paris" },
        answer as OpenAI.ChatCompletionAssistantMessageParam,
        { role: "tool", tool_call_id: toolCall.id, content: "18 degrees" },
      ],
    } as OpenAI.ChatCompletionCreateParamsStreaming);
    let content = "";
    let reasoning = "";
    const streamedBlocks: ClaudeThinkingBlock[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as
        | { content?: string; reasoning_content?: string; extra_content?: ExtraContent }
        | undefined;
      content += delta?.content ?? "";
      reasoning += delta?.reasoning_content ?? "";
      streamedBlocks.push(...(delta?.extra_content?.anthropic?.thinking_blocks ?? []));
    }
    const sent = claude.requests[1]!.body as { thinking?: unknown; messages: Array<{ content: unknown[] }> };
    expect(sent.thinking).toEqual({ type: "enabled", budget_tokens: 1024 });
    expect(sent.messages[1]!.content[0]).toEqual(blocks![0]);
    expect(content).toBe("Tool result: 18 degrees");
    expect(reasoning).toBe("Thinking about: 18 degrees");
    expect(streamedBlocks).toEqual([
      { type: "thinking", thinking: "Thinking about: 18 degrees", signature: expect.stringMatching(/^EqSig_/) },
    ]);
  });

  it("refuses thinking blocks that are not an earlier answer's, naming the field", async () => {
    const error = await client.chat.completions
      .create({
        model: "claude-a",
        messages: [
          { role: "user", content: "Paris" },
          { role: "assistant", content: "Hi", extra_content: { anthropic: { thinking_blocks: [{ type: "x" }] } } },
          { role: "user", content: "again" },
        ],
      } as OpenAI.ChatCompletionCreateParamsNonStreaming)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(claude.requests).toHaveLength(0);
  });

  it("forwards anthropic-beta and anthropic-version from a chat client to a Claude channel, never to another type", async () => {
    const headers = { "anthropic-beta": "interleaved-thinking-2025-05-14", "anthropic-version": "2023-06-01" };
    await client.chat.completions.create(
      { model: "claude-a", messages: [{ role: "user", content: "hi" }] },
      { headers },
    );
    expect(claude.requests[0]!.headers["anthropic-beta"]).toBe("interleaved-thinking-2025-05-14");
    expect(claude.requests[0]!.headers["anthropic-version"]).toBe("2023-06-01");
    await client.chat.completions.create({ model: "gpt-a", messages: [{ role: "user", content: "hi" }] }, { headers });
    expect(openaiUpstream.requests[0]!.headers["anthropic-beta"]).toBeUndefined();
    expect(openaiUpstream.requests[0]!.headers["anthropic-version"]).toBeUndefined();
    // Without the client's headers the channel's default version goes, and no beta.
    await client.chat.completions.create({ model: "claude-a", messages: [{ role: "user", content: "hi" }] });
    expect(claude.requests[1]!.headers["anthropic-beta"]).toBeUndefined();
    expect(claude.requests[1]!.headers["anthropic-version"]).toBe("2023-06-01");
  });
});
