import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeUpstream,
  startFakeAnthropicServer,
} from "../../mocks/upstreams/anthropic/start-fake-anthropic-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();

const weatherTool = {
  type: "function" as const,
  name: "get_weather",
  description: "Current weather of a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  strict: false,
};

/** 1 unit an input token, 2 an output token: the cost of an answer from its own usage. */
const costOf = (usage: OpenAI.Responses.ResponseUsage | undefined) => usage!.input_tokens + 2 * usage!.output_tokens;

describe.each(testDatabases)("OpenAI Responses on a Claude channel through the openai SDK on $name", ({ database }) => {
  let upstream: FakeUpstream;
  let gateway: TestGateway;
  let client: OpenAI;
  let tokenId: number;

  beforeAll(async () => {
    upstream = await startFakeAnthropicServer({ apiKey: "sk-ant-upstream-secret" });
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "claude",
            type: "anthropic",
            base_url: upstream.url,
            key: "sk-ant-upstream-secret",
            models: ["claude-a"],
            model_mapping: { "claude-a": "upstream-claude" },
          },
        ],
        pricing: { "claude-a": { input: 2, output: 4 } },
      },
    });
    const created = await createApiKey(gateway, { remainQuota: 1_000_000 });
    tokenId = created.id;
    client = new OpenAI({ apiKey: created.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });
  beforeEach(() => upstream.reset());

  const spent = async (action: () => Promise<unknown>) => {
    const before = await readToken(gateway, tokenId);
    await action();
    const after = await readToken(gateway, tokenId);
    expect(after.used_quota - before.used_quota).toBe(before.remain_quota - after.remain_quota);
    return before.remain_quota - after.remain_quota;
  };

  it("answers responses.create on Claude's protocol: instructions as system, max_output_tokens as max_tokens", async () => {
    let response: OpenAI.Responses.Response | undefined;
    const cost = await spent(async () => {
      response = await client.responses.create({
        model: "claude-a",
        instructions: "Be brief.",
        input: "one two three",
        max_output_tokens: 64,
      });
    });
    expect(upstream.requests[0]!.path).toBe("/v1/messages");
    expect(upstream.requests[0]!.headers["x-api-key"]).toBe("sk-ant-upstream-secret");
    expect(upstream.requests[0]!.body).toEqual({
      model: "upstream-claude",
      max_tokens: 64,
      system: "Be brief.",
      messages: [{ role: "user", content: [{ type: "text", text: "one two three" }] }],
    });
    expect(response!.status).toBe("completed");
    expect(response!.model).toBe("claude-a");
    expect(response!.output_text).toBe("Echo: one two three");
    // "Be brief." 2 words + (3 + 3): 8 prompt tokens, 4 output
    expect(response!.usage).toMatchObject({ input_tokens: 8, output_tokens: 4, total_tokens: 12 });
    expect(cost).toBe(8 + 4 * 2);
  });

  it("forwards a Responses client's anthropic-beta header to the Claude channel", async () => {
    await client.responses.create(
      { model: "claude-a", input: "hi" },
      { headers: { "anthropic-beta": "interleaved-thinking-2025-05-14" } },
    );
    expect(upstream.requests[0]!.headers["anthropic-beta"]).toBe("interleaved-thinking-2025-05-14");
    await client.responses.create({ model: "claude-a", input: "hi" });
    expect(upstream.requests[1]!.headers["anthropic-beta"]).toBeUndefined();
  });

  it("reports a cut answer as incomplete with max_output_tokens, billed for what was made", async () => {
    let response: OpenAI.Responses.Response | undefined;
    const cost = await spent(async () => {
      response = await client.responses.create({
        model: "claude-a",
        input: "one two three four",
        max_output_tokens: 2,
      });
    });
    expect(response!.status).toBe("incomplete");
    expect(response!.incomplete_details).toEqual({ reason: "max_output_tokens" });
    expect(response!.usage?.output_tokens).toBe(2);
    expect(cost).toBe(costOf(response!.usage));
  });

  it("streams the full Responses event sequence, billed exactly", async () => {
    const types: string[] = [];
    let completed: OpenAI.Responses.Response | undefined;
    let text = "";
    const cost = await spent(async () => {
      const stream = await client.responses.create({ model: "claude-a", input: "one two three", stream: true });
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === "response.output_text.delta") text += event.delta;
        if (event.type === "response.completed") completed = event.response;
      }
    });
    expect(upstream.requests[0]!.body).toMatchObject({ stream: true });
    expect(types).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      ...types.filter((type) => type === "response.output_text.delta"),
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(text).toBe("Echo: one two three");
    expect(completed!.output[0]).toMatchObject({ type: "message", content: [{ text: "Echo: one two three" }] });
    expect(cost).toBe(costOf(completed!.usage));
  });

  it("runs a streamed tool loop with reasoning.effort: thinking as reasoning items that carry the signed block across turns", async () => {
    let first: OpenAI.Responses.Response | undefined;
    const firstCost = await spent(async () => {
      const stream = client.responses.stream({
        model: "claude-a",
        input: "Paris",
        tools: [weatherTool],
        reasoning: { effort: "medium" },
        max_output_tokens: 1500,
      });
      first = await stream.finalResponse();
    });
    expect(upstream.requests[0]!.body).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 2048 },
      // The budget stays below max_tokens: the client's 1,500 come on top of it.
      max_tokens: 2048 + 1500,
      tools: [{ name: "get_weather", input_schema: weatherTool.parameters }],
    });
    expect(first!.output.map((item) => item.type)).toEqual(["reasoning", "message", "function_call"]);
    const reasoning = first!.output[0] as OpenAI.Responses.ResponseReasoningItem;
    expect(reasoning.summary).toEqual([{ type: "summary_text", text: "Thinking about: Paris" }]);
    expect(reasoning.encrypted_content).toMatch(/^claude-thinking:/);
    const call = first!.output[2] as OpenAI.Responses.ResponseFunctionToolCall;
    expect(call).toMatchObject({ name: "get_weather", arguments: '{"city":"Paris"}' });
    expect(firstCost).toBe(costOf(first!.usage));

    // The output goes back as the SDK gave it: the fake refuses thinking blocks whose signature does not match.
    let second: OpenAI.Responses.Response | undefined;
    const secondCost = await spent(async () => {
      second = await client.responses.create({
        model: "claude-a",
        tools: [weatherTool],
        reasoning: { effort: "medium" },
        input: [
          { role: "user", content: "Paris" },
          ...(first!.output as OpenAI.Responses.ResponseInputItem[]),
          { type: "function_call_output", call_id: call.call_id, output: "18 degrees" },
        ],
      });
    });
    const sent = upstream.requests[1]!.body as {
      messages: Array<{ role: string; content: unknown[] }>;
      thinking?: unknown;
    };
    expect(sent.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    expect(sent.messages[1]!.content[0]).toMatchObject({ type: "thinking", thinking: "Thinking about: Paris" });
    expect(sent.messages[2]).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: call.call_id, content: "18 degrees" }],
    });
    expect(second!.status).toBe("completed");
    expect(second!.output_text).toBe("Tool result: 18 degrees");
    expect(secondCost).toBe(costOf(second!.usage));
  });

  it("ends a stream Claude breaks after its first byte with an error event, billing the usage seen so far", async () => {
    const types: string[] = [];
    const cost = await spent(async () => {
      const stream = await client.responses.create({
        model: "claude-a",
        input: "please [fail-midstream]",
        stream: true,
      });
      for await (const event of stream) types.push(event.type);
    });
    expect(types.slice(0, 2)).toEqual(["response.created", "response.in_progress"]);
    expect(types).toContain("response.output_text.delta");
    expect(types.at(-1)).toBe("error");
    expect(types).not.toContain("response.completed");
    // message_start's counts: 2 words + 3 prompt tokens, 1 output token.
    expect(cost).toBe(5 + 1 * 2);
  });

  it("answers a json_schema text.format through a forced tool: the tool input is the message's output_text", async () => {
    const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    let response: OpenAI.Responses.Response | undefined;
    const cost = await spent(async () => {
      response = await client.responses.create({
        model: "claude-a",
        input: "Paris",
        text: { format: { type: "json_schema", name: "city_answer", schema } },
      });
    });
    expect(upstream.requests[0]!.body).toMatchObject({
      tools: [
        {
          name: "city_answer",
          description: "Answer with JSON that follows the city_answer schema.",
          input_schema: schema,
        },
      ],
      tool_choice: { type: "tool", name: "city_answer" },
    });
    expect(response!.status).toBe("completed");
    expect(response!.output).toHaveLength(1);
    expect(response!.output[0]).toMatchObject({ type: "message", role: "assistant" });
    expect(JSON.parse(response!.output_text)).toEqual({ city: "Paris" });
    expect(cost).toBe(costOf(response!.usage));
  });

  it("streams a json_object text.format as output_text deltas of a message item, billed exactly", async () => {
    const types: string[] = [];
    let text = "";
    let completed: OpenAI.Responses.Response | undefined;
    const cost = await spent(async () => {
      const stream = await client.responses.create({
        model: "claude-a",
        input: '[tool:json_object {"city": "Rome", "days": 3}]',
        text: { format: { type: "json_object" } },
        stream: true,
      });
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === "response.output_text.delta") text += event.delta;
        if (event.type === "response.completed") completed = event.response;
      }
    });
    expect(upstream.requests[0]!.body).toMatchObject({ tool_choice: { type: "tool", name: "json_object" } });
    expect(types.filter((type) => type.startsWith("response.function_call"))).toEqual([]);
    expect(JSON.parse(text)).toEqual({ city: "Rome", days: 3 });
    expect(completed!.status).toBe("completed");
    expect(completed!.output).toHaveLength(1);
    expect(completed!.output[0]).toMatchObject({ type: "message", content: [{ type: "output_text", text }] });
    expect(cost).toBe(costOf(completed!.usage));
  });

  it("refuses a text.format together with reasoning.effort (Claude cannot be forced to call a tool while it thinks)", async () => {
    const cost = await spent(async () => {
      const error = await client.responses
        .create({
          model: "claude-a",
          input: "x",
          reasoning: { effort: "low" },
          text: { format: { type: "json_object" } },
        })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("text.format");
    });
    expect(upstream.requests).toHaveLength(0);
    expect(cost).toBe(0);
  });

  it("holds the raised max_tokens of a thinking request: a balance that covers only the client's cap is refused", async () => {
    // reasoning.effort high: a 4,096-token budget, so Claude is asked for 4,096 + 100 tokens. The worst case of the
    // client's 100 (a few prompt units + 200) fits in 1,000 units; that of 4,196 (8,392 units) does not.
    const poor = await createApiKey(gateway, { remainQuota: 1_000 });
    const poorClient = new OpenAI({ apiKey: poor.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const request = { model: "claude-a", input: "hi", max_output_tokens: 100 };
    const refused: unknown = await poorClient.responses
      .create({ ...request, reasoning: { effort: "high" } })
      .catch((caught: unknown) => caught);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
    expect(upstream.requests).toHaveLength(0);
    expect(await readToken(gateway, poor.id)).toMatchObject({ remain_quota: 1_000, used_quota: 0 });
    // Without thinking the client's cap is what Claude is asked for, and the same balance covers it.
    const answered = await poorClient.responses.create(request);
    expect(upstream.requests[0]!.body).toMatchObject({ max_tokens: 100 });
    expect(answered.status).toBe("completed");
  });

  it("refuses a continuation by id with a 400 naming the field, before any upstream call", async () => {
    const cost = await spent(async () => {
      const error = await client.responses
        .create({ model: "claude-a", input: "x", previous_response_id: "resp_abc" })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("previous_response_id");
    });
    expect(upstream.requests).toHaveLength(0);
    expect(cost).toBe(0);
  });
});
