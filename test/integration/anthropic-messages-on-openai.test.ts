import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeUpstream, startFakeOpenaiServer } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { estimatePromptTokens } from "../../src/billing/estimate-prompt-tokens.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();

const weatherTool = {
  name: "get_weather",
  description: "Current weather of a city.",
  input_schema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] },
};

describe.each(testDatabases)(
  "Anthropic Messages on an OpenAI channel through the official SDK on $name",
  ({ database }) => {
    let upstream: FakeUpstream;
    let gateway: TestGateway;
    let client: Anthropic;
    let tokenId: number;

    beforeAll(async () => {
      upstream = await startFakeOpenaiServer({ apiKey: "openai-upstream-secret" });
      gateway = await startTestGateway({
        database,
        configFile: {
          channels: [
            {
              name: "gpt",
              type: "openai",
              base_url: upstream.url,
              key: "openai-upstream-secret",
              models: ["claude-like", "claude-thinker"],
              // The fake reasons for model names containing "reasoner".
              model_mapping: { "claude-like": "gpt-upstream", "claude-thinker": "reasoner-upstream" },
            },
          ],
          // 1 unit an input token, 2 an output token.
          pricing: { "claude-like": { input: 2, output: 4 }, "claude-thinker": { input: 2, output: 4 } },
        },
      });
      const created = await createApiKey(gateway, { remainQuota: 1_000_000 });
      tokenId = created.id;
      client = new Anthropic({ apiKey: created.key, baseURL: gateway.url, maxRetries: 0 });
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

    it("translates a message to chat completions and back, billing the upstream's 6 + 4 tokens as 14 units", async () => {
      let message: Anthropic.Message | undefined;
      const cost = await spent(async () => {
        message = await client.messages.create({
          model: "claude-like",
          max_tokens: 50,
          system: "Be brief.",
          messages: [{ role: "user", content: "one two three" }],
        });
      });
      expect(upstream.requests[0]!.path).toBe("/v1/chat/completions");
      expect(upstream.requests[0]!.body).toEqual({
        model: "gpt-upstream",
        max_tokens: 50,
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "one two three" },
        ],
      });
      expect(message).toMatchObject({
        type: "message",
        role: "assistant",
        model: "claude-like",
        content: [{ type: "text", text: "Echo: one two three" }],
        stop_reason: "end_turn",
        // (3 + 2) + (3 + 3) prompt tokens, 4 output
        usage: { input_tokens: 11, output_tokens: 4 },
      });
      expect(cost).toBe(11 + 4 * 2);
    });

    it("streams: message_start carries the estimate, message_delta the exact counts, billed exactly", async () => {
      const starts: number[] = [];
      let final: Anthropic.Message | undefined;
      const cost = await spent(async () => {
        const stream = client.messages.stream({
          model: "claude-like",
          max_tokens: 50,
          messages: [{ role: "user", content: "one two three" }],
        });
        stream.on("streamEvent", (event) => {
          if (event.type === "message_start") starts.push(event.message.usage.input_tokens);
        });
        final = await stream.finalMessage();
      });
      expect(starts).toHaveLength(1);
      expect(starts[0]).toBeGreaterThan(0);
      expect(final!.content).toEqual([{ type: "text", text: "Echo: one two three" }]);
      expect(final!.usage).toMatchObject({ input_tokens: 6, output_tokens: 4 });
      expect(cost).toBe(6 + 4 * 2);
    });

    it("runs a streamed tool loop: tool arguments as input_json_delta, the tool result sent back as a tool message", async () => {
      const first = await client.messages
        .stream({
          model: "claude-like",
          max_tokens: 100,
          tools: [weatherTool],
          messages: [{ role: "user", content: "Paris" }],
        })
        .finalMessage();
      expect(first.stop_reason).toBe("tool_use");
      const toolUse = first.content.find((block) => block.type === "tool_use")!;
      expect(toolUse).toMatchObject({ type: "tool_use", name: "get_weather", input: { city: "Paris" } });
      const second = await client.messages.create({
        model: "claude-like",
        max_tokens: 100,
        tools: [weatherTool],
        messages: [
          { role: "user", content: "Paris" },
          { role: "assistant", content: first.content },
          { role: "user", content: [{ type: "tool_result", tool_use_id: toolUse.id, content: "18 degrees" }] },
        ],
      });
      expect(second.content).toEqual([{ type: "text", text: "Tool result: 18 degrees" }]);
      expect((upstream.requests[1]!.body as { messages: unknown[] }).messages.slice(1)).toEqual([
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: toolUse.id, type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: "tool", tool_call_id: toolUse.id, content: "18 degrees" },
      ]);
    });

    it("carries thinking as reasoning across tool turns, the budget as reasoning_effort", async () => {
      const thinking = { type: "enabled" as const, budget_tokens: 4096 };
      const first = await client.messages.create({
        model: "claude-thinker",
        max_tokens: 8000,
        thinking,
        tools: [weatherTool],
        messages: [{ role: "user", content: "Paris" }],
      });
      expect(first.content.map((block) => block.type)).toEqual(["thinking", "tool_use"]);
      expect((upstream.requests[0]!.body as { reasoning_effort: string }).reasoning_effort).toBe("high");
      const toolUse = first.content.find((block) => block.type === "tool_use")!;
      const second = await client.messages.create({
        model: "claude-thinker",
        max_tokens: 8000,
        thinking,
        tools: [weatherTool],
        messages: [
          { role: "user", content: "Paris" },
          { role: "assistant", content: first.content },
          { role: "user", content: [{ type: "tool_result", tool_use_id: toolUse.id, content: "sunny" }] },
        ],
      });
      expect(second.content.at(-1)).toEqual({ type: "text", text: "Tool result: sunny" });
      const assistantTurn = (upstream.requests[1]!.body as { messages: Array<Record<string, unknown>> }).messages[1]!;
      expect(assistantTurn.reasoning_content).toBe((first.content[0] as Anthropic.ThinkingBlock).thinking);
    });

    it("estimates count_tokens with the reservation counter, unbilled, without calling the upstream", async () => {
      const body = { model: "claude-like", messages: [{ role: "user" as const, content: "one two three" }] };
      let counted: Anthropic.MessageTokensCount | undefined;
      const cost = await spent(async () => {
        counted = await client.messages.countTokens(body);
      });
      expect(counted).toEqual({ input_tokens: estimatePromptTokens(body) });
      expect(upstream.requests).toHaveLength(0);
      expect(cost).toBe(0);
    });

    it("refuses a server tool with a 400 invalid_request_error before any upstream call, refunding the hold", async () => {
      const cost = await spent(async () => {
        const refused = await client.messages
          .create({
            model: "claude-like",
            max_tokens: 10,
            tools: [{ type: "web_search_20250305", name: "web_search" }],
            messages: [{ role: "user", content: "news" }],
          })
          .catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
        expect((refused as { error: unknown }).error).toMatchObject({
          type: "error",
          error: { type: "invalid_request_error", message: expect.stringContaining("served only by Claude channels") },
        });
      });
      expect(upstream.requests).toHaveLength(0);
      expect(cost).toBe(0);
    });
  },
);
