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
  function: {
    name: "get_weather",
    description: "Current weather of a city.",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

describe.each(testDatabases)(
  "OpenAI chat completions on a Claude channel through the openai SDK on $name",
  ({ database }) => {
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

    it("answers a chat completion on Claude's protocol, with a default max_tokens, billing 6 + 4 tokens as 14 units", async () => {
      let completion: OpenAI.ChatCompletion | undefined;
      const cost = await spent(async () => {
        completion = await client.chat.completions.create({
          model: "claude-a",
          messages: [
            { role: "system", content: "Be brief." },
            { role: "user", content: "one two three" },
          ],
          stop: "never",
        });
      });
      expect(upstream.requests[0]!.path).toBe("/v1/messages");
      expect(upstream.requests[0]!.body).toEqual({
        model: "upstream-claude",
        max_tokens: 4096,
        system: "Be brief.",
        messages: [{ role: "user", content: [{ type: "text", text: "one two three" }] }],
        stop_sequences: ["never"],
      });
      expect(completion!.choices[0]).toMatchObject({
        message: { role: "assistant", content: "Echo: one two three" },
        finish_reason: "stop",
      });
      // "Be brief." 2 words + (3 + 3): 8 prompt tokens, 4 output
      expect(completion!.usage).toMatchObject({ prompt_tokens: 8, completion_tokens: 4, total_tokens: 12 });
      expect(cost).toBe(8 + 4 * 2);
    });

    it("streams a tool call with its arguments, then answers the tool result; reasoning_effort becomes a thinking budget", async () => {
      const stream = await client.chat.completions.create({
        model: "claude-a",
        messages: [{ role: "user", content: "Paris" }],
        tools: [weatherTool],
        reasoning_effort: "high",
        stream: true,
        stream_options: { include_usage: true },
      });
      let reasoning = "";
      let argumentsText = "";
      let toolCallId = "";
      let finishReason: string | null = null;
      let usage: OpenAI.CompletionUsage | null | undefined;
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        reasoning += (choice?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? "";
        for (const call of choice?.delta.tool_calls ?? []) {
          if (call.id) toolCallId = call.id;
          argumentsText += call.function?.arguments ?? "";
        }
        if (choice?.finish_reason) finishReason = choice.finish_reason;
        if (chunk.usage) usage = chunk.usage;
      }
      expect(upstream.requests[0]!.body).toMatchObject({
        thinking: { type: "enabled", budget_tokens: 4096 },
        max_tokens: 4096 + 4096,
        stream: true,
      });
      expect(reasoning).toBe("Thinking about: Paris");
      expect(JSON.parse(argumentsText)).toEqual({ city: "Paris" });
      expect(finishReason).toBe("tool_calls");
      expect(usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) });

      const second = await client.chat.completions.create({
        model: "claude-a",
        reasoning_effort: "high",
        tools: [weatherTool],
        messages: [
          { role: "user", content: "Paris" },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: toolCallId, type: "function", function: { name: "get_weather", arguments: argumentsText } },
            ],
          },
          { role: "tool", tool_call_id: toolCallId, content: "18 degrees" },
        ],
      });
      expect(second.choices[0]!.message.content).toBe("Tool result: 18 degrees");
      const sent = upstream.requests[1]!.body as { messages: unknown[]; thinking?: unknown };
      // Continuing a tool call, thinking stays off: the chat form carries no signed thinking block.
      expect(sent.thinking).toBeUndefined();
      expect(sent.messages.slice(1)).toEqual([
        {
          role: "assistant",
          content: [{ type: "tool_use", id: toolCallId, name: "get_weather", input: { city: "Paris" } }],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: toolCallId, content: "18 degrees" }] },
      ]);
    });

    it("answers Claude's 429 as the OpenAI error with Retry-After, refunding the hold", async () => {
      upstream.setFaults({ status: 429, retryAfterSeconds: 4, times: 1 });
      const cost = await spent(async () => {
        const error = await client.chat.completions
          .create({ model: "claude-a", messages: [{ role: "user", content: "x" }] })
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(OpenAI.RateLimitError);
        expect((error as InstanceType<typeof OpenAI.RateLimitError>).headers?.get("retry-after")).toBe("4");
      });
      expect(cost).toBe(0);
    });

    it("holds the raised max_tokens of a thinking request: a balance that covers only the client's cap is refused", async () => {
      // reasoning_effort high: a 4,096-token budget, so Claude is asked for 4,096 + 100 tokens. The worst case of
      // the client's 100 (a few prompt units + 200) fits in 1,000 units; that of 4,196 (8,392 units) does not.
      const poor = await createApiKey(gateway, { remainQuota: 1_000 });
      const poorClient = new OpenAI({ apiKey: poor.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
      const request = { model: "claude-a", messages: [{ role: "user" as const, content: "hi" }], max_tokens: 100 };
      const refused: unknown = await poorClient.chat.completions
        .create({ ...request, reasoning_effort: "high" })
        .catch((caught: unknown) => caught);
      expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
      expect(upstream.requests).toHaveLength(0);
      expect(await readToken(gateway, poor.id)).toMatchObject({ remain_quota: 1_000, used_quota: 0 });
      const answered = await poorClient.chat.completions.create(request);
      expect(upstream.requests[0]!.body).toMatchObject({ max_tokens: 100 });
      expect(answered.choices[0]!.finish_reason).toBe("stop");
    });
  },
);
