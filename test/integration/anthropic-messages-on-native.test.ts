import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
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

/** 1 unit an input token, 2 an output token (thoughts included): the cost of an answer from its own usage. */
const costOf = (usage: Anthropic.Usage) =>
  usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + 2 * usage.output_tokens;

describe.each(testDatabases)(
  "Anthropic Messages on a native channel through the official SDK on $name",
  ({ database }) => {
    let upstream: FakeNativeUpstream;
    let gateway: TestGateway;
    let client: Anthropic;
    let tokenId: number;
    let responseCounter = 0;

    beforeAll(async () => {
      upstream = await startFakeNativeServer({
        apiKey: "native-secret",
        createResponseId: () => `resp-${++responseCounter}`,
      });
      gateway = await startTestGateway({
        database,
        configFile: {
          channels: [
            {
              name: "native-main",
              type: "native",
              base_url: upstream.url,
              key: "native-secret",
              models: ["gmx-2.5-flash", "gmx-3-flash-preview"],
            },
          ],
          pricing: {
            "gmx-2.5-flash": { input: 2, output: 4 },
            "gmx-3-flash-preview": { input: 2, output: 4 },
          },
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

    it("translates a message to generateContent and back, billing the upstream's own counts", async () => {
      let message: Anthropic.Message | undefined;
      const cost = await spent(async () => {
        message = await client.messages.create({
          model: "gmx-2.5-flash",
          max_tokens: 50,
          system: "Be brief.",
          stop_sequences: ["never"],
          messages: [{ role: "user", content: "one two three" }],
        });
      });
      expect(upstream.requests[0]!.path).toBe("/v1beta/models/gmx-2.5-flash:generateContent");
      expect(upstream.requests[0]!.body).toEqual({
        systemInstruction: { parts: [{ text: "Be brief." }] },
        contents: [{ role: "user", parts: [{ text: "one two three" }] }],
        generationConfig: { maxOutputTokens: 50, stopSequences: ["never"] },
      });
      expect(message).toMatchObject({
        type: "message",
        role: "assistant",
        model: "gmx-2.5-flash",
        content: [{ type: "text", text: "Echo: one two three" }],
        stop_reason: "end_turn",
      });
      expect(message!.usage.input_tokens).toBeGreaterThan(0);
      expect(message!.usage.output_tokens).toBeGreaterThan(0);
      expect(cost).toBe(costOf(message!.usage));
    });

    it("streams Anthropic's event sequence: the estimate first, the exact counts in message_delta, billed exactly", async () => {
      const types: string[] = [];
      let final: Anthropic.Message | undefined;
      const body = {
        model: "gmx-2.5-flash",
        max_tokens: 50,
        messages: [{ role: "user" as const, content: "one two three" }],
      };
      const cost = await spent(async () => {
        const stream = client.messages.stream(body);
        stream.on("streamEvent", (event) => {
          types.push(event.type);
          if (event.type === "message_start") expect(event.message.usage.input_tokens).toBe(estimatePromptTokens(body));
        });
        final = await stream.finalMessage();
      });
      expect(upstream.requests[0]!.path).toBe("/v1beta/models/gmx-2.5-flash:streamGenerateContent?alt=sse");
      expect(types[0]).toBe("message_start");
      expect(types.slice(-2)).toEqual(["message_delta", "message_stop"]);
      expect(types).toContain("content_block_start");
      expect(final!.content).toEqual([{ type: "text", text: "Echo: one two three" }]);
      expect(cost).toBe(costOf(final!.usage));
    });

    it("runs a streamed tool loop with thinking on a model that checks thought signatures, across turns", async () => {
      let first: Anthropic.Message | undefined;
      // The stream is made inside the measured action: the SDK sends the request as soon as the stream is made, so a
      // stream made before the first balance read could take its hold before that read (seen on PostgreSQL once a
      // lone hold became one plain statement) and the difference then counted its refund, not its cost.
      const firstCost = await spent(async () => {
        first = await client.messages
          .stream({
            model: "gmx-3-flash-preview",
            max_tokens: 4096,
            thinking: { type: "enabled", budget_tokens: 2048 },
            tools: [weatherTool],
            messages: [{ role: "user", content: "Paris" }],
          })
          .finalMessage();
      });
      expect(upstream.requests[0]!.body).toMatchObject({
        // A generation-3 model takes a level: 2,048 tokens is MEDIUM (the budget is exact on 2.5 models).
        generationConfig: { maxOutputTokens: 4096, thinkingConfig: { thinkingLevel: "MEDIUM", includeThoughts: true } },
        tools: [{ functionDeclarations: [expect.objectContaining({ name: "get_weather" })] }],
      });
      expect(first!.stop_reason).toBe("tool_use");
      expect(first!.content[0]).toMatchObject({ type: "thinking", thinking: "Thinking about Paris" });
      const toolUse = first!.content.find((block): block is Anthropic.ToolUseBlock => block.type === "tool_use")!;
      expect(toolUse).toMatchObject({ name: "get_weather", input: { city: "Paris" } });
      expect(firstCost).toBe(costOf(first!.usage));

      // The assistant turn goes back as the SDK gave it: the fake refuses a function call whose signature is lost.
      let second: Anthropic.Message | undefined;
      const secondCost = await spent(async () => {
        second = await client.messages.create({
          model: "gmx-3-flash-preview",
          max_tokens: 4096,
          thinking: { type: "enabled", budget_tokens: 2048 },
          tools: [weatherTool],
          messages: [
            { role: "user", content: "Paris" },
            { role: "assistant", content: first!.content },
            { role: "user", content: [{ type: "tool_result", tool_use_id: toolUse.id, content: "18 degrees" }] },
          ],
        });
      });
      const sent = upstream.requests[1]!.body as { contents: Array<{ role: string; parts: unknown[] }> };
      expect(sent.contents[1]!.parts).toContainEqual(
        expect.objectContaining({
          functionCall: expect.objectContaining({ name: "get_weather" }),
          thoughtSignature: expect.any(String),
        }),
      );
      expect(second!.stop_reason).toBe("end_turn");
      const text = second!.content.find((block): block is Anthropic.TextBlock => block.type === "text")!;
      expect(text.text).toContain("Function get_weather returned");
      expect(secondCost).toBe(costOf(second!.usage));

      // No block after the answer's text: Claude Code reads its reply from the last block.
      expect(second!.content.at(-1)?.type).toBe("text");
    });

    it("estimates count_tokens with the reservation counter, unbilled, without calling the upstream", async () => {
      const body = { model: "gmx-2.5-flash", messages: [{ role: "user" as const, content: "one two three four" }] };
      let counted: Anthropic.MessageTokensCount | undefined;
      const cost = await spent(async () => {
        counted = await client.messages.countTokens(body);
      });
      expect(counted).toEqual({ input_tokens: estimatePromptTokens(body) });
      expect(upstream.requests).toHaveLength(0);
      expect(cost).toBe(0);
    });

    it("answers a native 429 as Anthropic's rate_limit_error, refunding the hold", async () => {
      upstream.setFaults({ status: 429, times: 1 });
      const cost = await spent(async () => {
        const error = await client.messages
          .create({ model: "gmx-2.5-flash", max_tokens: 10, messages: [{ role: "user", content: "x" }] })
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(Anthropic.RateLimitError);
      });
      expect(cost).toBe(0);
    });
  },
);
