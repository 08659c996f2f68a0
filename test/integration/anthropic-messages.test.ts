import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeUpstream,
  startFakeAnthropicServer,
} from "../../mocks/upstreams/anthropic/start-fake-anthropic-server.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";
import { closeChannelBreakers } from "../support/close-channel-breakers.js";

const testDatabases = await openTestDatabases();

// Prices in USD per 1M tokens at 500,000 units per USD: input 1 unit a token, output 2, cache reads 0.5.
const pricing = { "claude-a": { input: 2, output: 4, cached_input: 1 } };

const weatherTool = {
  name: "get_weather",
  description: "Current weather of a city.",
  input_schema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] },
};

describe.each(testDatabases)(
  "Anthropic Messages on a Claude channel through the official SDK on $name",
  ({ database }) => {
    let upstream: FakeUpstream;
    let gateway: TestGateway;
    let client: Anthropic;
    let apiKey: string;
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
              models: ["claude-a", "claude-denied"],
              model_mapping: { "claude-a": "upstream-claude" },
            },
          ],
          pricing: { ...pricing, "claude-denied": { input: 2, output: 4 } },
        },
        // Small enough that a test can send a body over it.
        environment: { JSON_BODY_LIMIT: "64kb" },
      });
      const created = await createApiKey(gateway, { remainQuota: 1_000_000, modelLimits: ["claude-a", "missing-x"] });
      tokenId = created.id;
      apiKey = created.key;
      client = new Anthropic({ apiKey, baseURL: gateway.url, maxRetries: 0 });
    });
    afterAll(async () => {
      await gateway.close();
      await upstream.close();
    });
    beforeEach(() => {
      upstream.reset();
      closeChannelBreakers(gateway);
    });

    const spent = async (action: () => Promise<unknown>) => {
      const before = await readToken(gateway, tokenId);
      await action();
      const after = await readToken(gateway, tokenId);
      expect(after.used_quota - before.used_quota).toBe(before.remain_quota - after.remain_quota);
      return before.remain_quota - after.remain_quota;
    };

    it("passes the body through with the channel's model, key and the client's Anthropic headers, and bills 6 in + 4 out as 14 units", async () => {
      let message: Anthropic.Message | undefined;
      const cost = await spent(async () => {
        message = await client.messages.create(
          {
            model: "claude-a",
            max_tokens: 50,
            messages: [{ role: "user", content: "one two three" }],
            // An unknown field goes through untouched.
            ...({ context_management: { edits: [] } } as object),
          } as Anthropic.MessageCreateParamsNonStreaming,
          { headers: { "anthropic-beta": "context-management-2025-06-27,fine-grained-tool-streaming-2025-05-14" } },
        );
      });
      expect(message!.model).toBe("claude-a");
      expect(message!.content).toEqual([{ type: "text", text: "Echo: one two three" }]);
      expect(message!.usage).toMatchObject({ input_tokens: 6, output_tokens: 4 });
      const sent = upstream.requests[0]!;
      expect(sent.path).toBe("/v1/messages");
      expect(sent.body).toEqual({
        model: "upstream-claude",
        max_tokens: 50,
        messages: [{ role: "user", content: "one two three" }],
        context_management: { edits: [] },
      });
      expect(sent.headers["x-api-key"]).toBe("sk-ant-upstream-secret");
      expect(sent.headers.authorization).toBeUndefined();
      expect(sent.headers["anthropic-beta"]).toBe(
        "context-management-2025-06-27,fine-grained-tool-streaming-2025-05-14",
      );
      expect(sent.headers["anthropic-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(cost).toBe(6 + 4 * 2);
    });

    it("tests the channel with a one-token message carrying the key as x-api-key", async () => {
      const list = await gateway.client.management.GET("/api/channel/", { params: { query: { p: 1, size: 50 } } });
      const id = list.data!.data.items.find((channel) => channel.name === "claude")!.id;
      const result = await gateway.client.management.POST("/api/channel/{id}/test", {
        params: { path: { id } },
        body: {},
      });
      expect(result.data!.data).toMatchObject({ success: true, message: "" });
      expect(upstream.requests.map((request) => [request.method, request.path, request.headers["x-api-key"]])).toEqual([
        ["POST", "/v1/messages", "sk-ant-upstream-secret"],
      ]);
      expect(upstream.requests[0]!.body).toMatchObject({ max_tokens: 1 });
    });

    it("takes the key as x-api-key (Claude Code) and defaults anthropic-version upstream to 2023-06-01", async () => {
      const answer = await fetch(`${gateway.url}/v1/messages?beta=true`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": apiKey },
        body: JSON.stringify({ model: "claude-a", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
      });
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { content: unknown }).content).toEqual([{ type: "text", text: "Echo: hi" }]);
      expect(upstream.requests[0]!.headers["anthropic-version"]).toBe("2023-06-01");
    });

    it("streams Claude's events through with the client's model name and bills the message_delta's usage", async () => {
      const types: string[] = [];
      let final: Anthropic.Message | undefined;
      const cost = await spent(async () => {
        const stream = client.messages.stream({
          model: "claude-a",
          max_tokens: 2048,
          thinking: { type: "enabled", budget_tokens: 1024 },
          messages: [{ role: "user", content: "one two" }],
        });
        stream.on("streamEvent", (event) => types.push(event.type));
        final = await stream.finalMessage();
      });
      expect(types[0]).toBe("message_start");
      expect(types).toContain("content_block_delta");
      expect(types.at(-1)).toBe("message_stop");
      expect(final!.model).toBe("claude-a");
      expect(final!.content.map((block) => block.type)).toEqual(["thinking", "text"]);
      // input 3 + 2 = 5; output "Thinking about: one two" (4) + "Echo: one two" (3) = 7
      expect(final!.usage).toMatchObject({ input_tokens: 5, output_tokens: 7 });
      expect(cost).toBe(5 + 7 * 2);
    });

    it("runs a tool loop with thinking across turns: the signed thinking block goes back untouched", async () => {
      const thinking = { type: "enabled" as const, budget_tokens: 1024 };
      const first = await client.messages.create({
        model: "claude-a",
        max_tokens: 2048,
        thinking,
        tools: [weatherTool],
        messages: [{ role: "user", content: "Paris" }],
      });
      expect(first.stop_reason).toBe("tool_use");
      const toolUse = first.content.find((block) => block.type === "tool_use")!;
      const second = await client.messages.create({
        model: "claude-a",
        max_tokens: 2048,
        thinking,
        tools: [weatherTool],
        messages: [
          { role: "user", content: "Paris" },
          { role: "assistant", content: first.content },
          { role: "user", content: [{ type: "tool_result", tool_use_id: toolUse.id, content: "18 degrees" }] },
        ],
      });
      expect(second.content.at(-1)).toEqual({ type: "text", text: "Tool result: 18 degrees" });
      // A tampered signature is Claude's 400, answered in Anthropic's envelope and refunded.
      const before = await readToken(gateway, tokenId);
      const refused = await client.messages
        .create({
          model: "claude-a",
          max_tokens: 2048,
          thinking,
          tools: [weatherTool],
          messages: [
            { role: "user", content: "Paris" },
            {
              role: "assistant",
              content: first.content.map((block) =>
                block.type === "thinking" ? { ...block, signature: "forged" } : block,
              ),
            },
            { role: "user", content: [{ type: "tool_result", tool_use_id: toolUse.id, content: "18 degrees" }] },
          ],
        })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
      expect((refused as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
        type: "error",
        error: { type: "invalid_request_error", message: expect.stringContaining("Invalid `signature`") },
      });
      expect((await readToken(gateway, tokenId)).remain_quota).toBe(before.remain_quota);
    });

    it("bills a cache write at 1.25 × the input price and a cache read at the cached input price", async () => {
      const create = () =>
        client.messages.create({
          model: "claude-a",
          max_tokens: 10,
          system: [{ type: "text", text: "a long shared preamble of six words", cache_control: { type: "ephemeral" } }],
          messages: [{ role: "user", content: "hi" }],
        });
      // 7 prompt tokens written to the cache (at 1.25 × input, the default) + 4 others; "Echo: hi" is 2 output tokens.
      expect(await spent(create)).toBe(Math.round(7 * 1.25 + 4 + 2 * 2));
      expect(await spent(create)).toBe(Math.round(7 * 0.5 + 4 + 2 * 2));
    });

    it("counts tokens with Claude's own count, unbilled", async () => {
      let counted: Anthropic.MessageTokensCount | undefined;
      const cost = await spent(async () => {
        counted = await client.messages.countTokens({
          model: "claude-a",
          messages: [{ role: "user", content: "one two three" }],
        });
      });
      expect(counted).toEqual({ input_tokens: 6 });
      expect(upstream.requests[0]!.path).toBe("/v1/messages/count_tokens");
      expect((upstream.requests[0]!.body as { model: string }).model).toBe("upstream-claude");
      expect(cost).toBe(0);
    });

    it("answers errors in Anthropic's envelope with its types and statuses, billing nothing", async () => {
      const cost = await spent(async () => {
        const noKey = await fetch(`${gateway.url}/v1/messages`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ model: "claude-a", max_tokens: 5, messages: [{ role: "user", content: "x" }] }),
        });
        expect(noKey.status).toBe(401);
        const noKeyBody = (await noKey.json()) as { type: string; error: { type: string }; request_id: string };
        expect(noKeyBody).toMatchObject({ type: "error", error: { type: "authentication_error" } });
        expect(noKeyBody.request_id).toBe(noKey.headers.get("x-request-id"));

        const error = (promise: Promise<unknown>) => promise.then(() => undefined).catch((caught: unknown) => caught);
        const ask = (body: Record<string, unknown>) => error(client.messages.create(body as never));
        const missingField = await ask({ model: "claude-a", messages: [{ role: "user", content: "x" }] });
        expect(missingField).toBeInstanceOf(Anthropic.BadRequestError);
        expect((missingField as { error: unknown }).error).toMatchObject({ error: { type: "invalid_request_error" } });

        const unknownModel = await ask({
          model: "missing-x",
          max_tokens: 5,
          messages: [{ role: "user", content: "x" }],
        });
        expect(unknownModel).toBeInstanceOf(Anthropic.NotFoundError);
        expect((unknownModel as { error: unknown }).error).toMatchObject({ error: { type: "not_found_error" } });

        const notAllowed = await ask({
          model: "claude-denied",
          max_tokens: 5,
          messages: [{ role: "user", content: "x" }],
        });
        expect(notAllowed).toBeInstanceOf(Anthropic.PermissionDeniedError);
        expect((notAllowed as { error: unknown }).error).toMatchObject({ error: { type: "permission_error" } });

        // The SDK refuses so large a max_tokens itself: sent as Claude Code would.
        const tooExpensive = await fetch(`${gateway.url}/v1/messages`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": apiKey },
          body: JSON.stringify({
            model: "claude-a",
            max_tokens: 10_000_000,
            messages: [{ role: "user", content: "x" }],
          }),
        });
        expect(tooExpensive.status).toBe(402);
        expect(await tooExpensive.json()).toMatchObject({ type: "error", error: { type: "billing_error" } });

        const tooLarge = await ask({
          model: "claude-a",
          max_tokens: 5,
          messages: [{ role: "user", content: "x".repeat(100_000) }],
        });
        expect((tooLarge as { status: number }).status).toBe(413);
        expect((tooLarge as { error: unknown }).error).toMatchObject({ error: { type: "request_too_large" } });

        upstream.setFaults({ status: 429, retryAfterSeconds: 9 });
        const limited = await ask({ model: "claude-a", max_tokens: 5, messages: [{ role: "user", content: "x" }] });
        expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
        expect((limited as InstanceType<typeof Anthropic.RateLimitError>).headers.get("retry-after")).toBe("9");
        expect((limited as { error: unknown }).error).toMatchObject({ error: { type: "rate_limit_error" } });

        upstream.setFaults({ status: 529 });
        const overloaded = await ask({ model: "claude-a", max_tokens: 5, messages: [{ role: "user", content: "x" }] });
        expect((overloaded as { status: number }).status).toBe(529);
        expect((overloaded as { error: unknown }).error).toMatchObject({ error: { type: "overloaded_error" } });

        upstream.setFaults({ status: 500 });
        const failed = await ask({ model: "claude-a", max_tokens: 5, messages: [{ role: "user", content: "x" }] });
        expect(failed).toBeInstanceOf(Anthropic.InternalServerError);
        expect((failed as { error: unknown }).error).toMatchObject({ error: { type: "api_error" } });
        upstream.setFaults({});
      });
      expect(cost).toBe(0);
    });

    it("holds a key to its requests per minute on /v1/messages: the second is Anthropic's 429 with retry-after", async () => {
      const limited = await createApiKey(gateway, { remainQuota: 1_000_000, rpmLimit: 1 });
      const limitedClient = new Anthropic({ apiKey: limited.key, baseURL: gateway.url, maxRetries: 0 });
      const ask = () =>
        limitedClient.messages.create({ model: "claude-a", max_tokens: 5, messages: [{ role: "user", content: "x" }] });
      await ask();
      const refused = await ask().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(Anthropic.RateLimitError);
      const retryAfter = Number((refused as InstanceType<typeof Anthropic.RateLimitError>).headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect((refused as { error: unknown }).error).toMatchObject({
        type: "error",
        error: { type: "rate_limit_error" },
      });
      expect(upstream.requests).toHaveLength(1);
    });

    it("ends a stream the upstream broke after its first byte with an error event, billing what was seen", async () => {
      upstream.setFaults({ resetMidStreamAfterChunks: 4, times: 1 });
      let transcript = "";
      // Read to the end of the stream (the SDK stops at the error event, before the relay settles on PostgreSQL).
      const cost = await spent(async () => {
        const answer = await fetch(`${gateway.url}/v1/messages`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": apiKey },
          body: JSON.stringify({
            model: "claude-a",
            max_tokens: 50,
            stream: true,
            messages: [{ role: "user", content: "one two three" }],
          }),
        });
        transcript = await answer.text();
      });
      const events = [...transcript.matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
      expect(events).toEqual(["message_start", "ping", "content_block_start", "content_block_delta", "error"]);
      expect(transcript).toMatch(/"type":"error","error":\{"type":"api_error","message":"[^"]*"\},"request_id":"/);
      // message_start reported 6 input and 1 output token: billed as reported so far.
      expect(cost).toBe(6 + 1 * 2);
    });
  },
);
