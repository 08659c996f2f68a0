import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeBedrockServer } from "../../mocks/upstreams/bedrock/start-fake-bedrock-server.js";
import type { FakeUpstream } from "../../mocks/upstreams/shared/fake-upstream.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { closeChannelBreakers } from "../support/close-channel-breakers.js";
import { createApiKey } from "../support/create-api-key.js";
import { readToken } from "../support/read-token.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

const testDatabases = await openTestDatabases();
const accessKeyId = "AKIAFAKEACCESSKEY0003";
const secretAccessKey = "fakeMessagesSecret0123456789abcdefghijklm";
const modelId = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const weatherTool = {
  name: "get_weather",
  description: "Current weather.",
  input_schema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] },
};
// Eight words, marked for the prompt cache.
const cachedSystem = [
  {
    type: "text" as const,
    text: "You are a careful assistant with strict rules",
    cache_control: { type: "ephemeral" as const },
  },
];

describe.each(testDatabases)(
  "Anthropic's Messages API on Bedrock channels through the official SDK on $name",
  ({ database }) => {
    let bedrock: FakeUpstream;
    let gateway: TestGateway;
    let client: Anthropic;
    let tokenId: number;
    const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bedrock-messages-log-")), "gateway.log");
    const answers: string[] = [];

    beforeAll(async () => {
      bedrock = await startFakeBedrockServer({ credential: { accessKeyId, secretAccessKey }, region: "us-west-2" });
      const channel = (name: string, key: string, models: string[], mapping: Record<string, string>) => ({
        name,
        type: "bedrock",
        base_url: bedrock.url,
        key,
        settings: { region: "us-west-2" },
        models,
        model_mapping: mapping,
      });
      gateway = await startTestGateway({
        database,
        logFile,
        configFile: {
          channels: [
            channel("bedrock-claude", `${accessKeyId}:${secretAccessKey}`, ["claude-sonnet", "nova-pro"], {
              "claude-sonnet": modelId,
              "nova-pro": "amazon.nova-pro-v1:0",
            }),
            channel("bedrock-wrong", `${accessKeyId}:wrongMessagesSecret00000000000000000000`, ["claude-wrong"], {
              "claude-wrong": modelId,
            }),
          ],
          // Per token: input 1 unit, output 2, a cache read 0.5, a cache write 2.
          pricing: {
            "claude-sonnet": { input: 2, output: 4, cached_input: 1, cache_write_input: 4 },
            "nova-pro": { input: 2, output: 4 },
            "claude-wrong": { input: 2, output: 4 },
          },
        },
      });
      const created = await createApiKey(gateway, { remainQuota: 1_000_000 });
      tokenId = created.id;
      client = new Anthropic({ apiKey: created.key, baseURL: gateway.url, maxRetries: 0 });
    });
    afterAll(async () => {
      await gateway?.close();
      await bedrock?.close();
    });
    beforeEach(() => {
      bedrock.reset();
      // A broken stream counts against its channel: the faults one test injects must not cool the next one's down.
      closeChannelBreakers(gateway);
    });

    const spent = async (action: () => Promise<unknown>) => {
      const before = await readToken(gateway, tokenId);
      await action();
      const after = await readToken(gateway, tokenId);
      expect(after.used_quota - before.used_quota).toBe(before.remain_quota - after.remain_quota);
      return before.remain_quota - after.remain_quota;
    };

    it("sends Claude's body to InvokeModel, signed, with anthropic_version and no model; cache writes and reads priced apart", async () => {
      let first: Anthropic.Message | undefined;
      const firstCost = await spent(async () => {
        first = await client.messages.create(
          {
            model: "claude-sonnet",
            max_tokens: 50,
            system: cachedSystem,
            messages: [{ role: "user", content: "one two three" }],
          },
          { headers: { "anthropic-beta": "context-1m-2025-08-07, token-efficient-tools-2025-02-19" } },
        );
      });
      answers.push(JSON.stringify(first));
      const sent = bedrock.requests[0]!;
      expect(sent.path).toBe(`/model/${encodeURIComponent(modelId)}/invoke`);
      expect(sent.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIAFAKEACCESSKEY0003\/\d{8}\/us-west-2\/bedrock\//,
      );
      expect(sent.body).toEqual({
        anthropic_version: "bedrock-2023-05-31",
        max_tokens: 50,
        system: cachedSystem,
        messages: [{ role: "user", content: "one two three" }],
        anthropic_beta: ["context-1m-2025-08-07", "token-efficient-tools-2025-02-19"],
      });
      expect(first!.model).toBe("claude-sonnet");
      expect(first!.content).toEqual([{ type: "text", text: "Echo: one two three" }]);
      // 8 system words written to the cache; 3 + 3 message tokens uncached; 4 output words.
      expect(first!.usage).toMatchObject({
        input_tokens: 6,
        cache_creation_input_tokens: 8,
        cache_read_input_tokens: 0,
        output_tokens: 4,
      });
      expect(firstCost).toBe(6 * 1 + 8 * 2 + 4 * 2);

      const second = await spent(async () => {
        await client.messages.create({
          model: "claude-sonnet",
          max_tokens: 50,
          system: cachedSystem,
          messages: [{ role: "user", content: "one two three" }],
        });
      });
      // The same prefix again is read from the cache: 8 × 0.5.
      expect(second).toBe(6 * 1 + 8 * 0.5 + 4 * 2);
    });

    it("streams Claude's events out of base64 chunk frames, without Bedrock's metrics, billed from message_delta", async () => {
      const events: Anthropic.MessageStreamEvent[] = [];
      const cost = await spent(async () => {
        const stream = await client.messages.create({
          model: "claude-sonnet",
          max_tokens: 100,
          tools: [weatherTool],
          messages: [{ role: "user", content: "weather in Paris" }],
          stream: true,
        });
        for await (const event of stream) events.push(event);
      });
      answers.push(JSON.stringify(events));
      const sent = bedrock.requests[0]!;
      expect(sent.path).toBe(`/model/${encodeURIComponent(modelId)}/invoke-with-response-stream`);
      expect(sent.body).not.toHaveProperty("stream");
      expect(sent.body).not.toHaveProperty("model");
      expect(events.map((event) => event.type)).toContain("message_stop");
      expect(JSON.stringify(events)).not.toContain("amazon-bedrock-invocationMetrics");
      const start = events.find((event) => event.type === "message_start") as Anthropic.RawMessageStartEvent;
      expect(start.message.model).toBe("claude-sonnet");
      const toolStart = events.find(
        (event) => event.type === "content_block_start" && event.content_block.type === "tool_use",
      ) as Anthropic.RawContentBlockStartEvent;
      expect(toolStart.content_block).toMatchObject({ type: "tool_use", name: "get_weather" });
      const delta = events.find((event) => event.type === "message_delta") as Anthropic.RawMessageDeltaEvent;
      expect(delta.delta.stop_reason).toBe("tool_use");
      expect(cost).toBe(delta.usage.input_tokens! + 2 * delta.usage.output_tokens);
      expect(delta.usage.output_tokens).toBeGreaterThan(0);
    });

    it("ends a stream whose frame fails its CRC with an error event in Anthropic's envelope, billing what was seen", async () => {
      let text = "";
      const cost = await spent(async () => {
        const response = await fetch(`${gateway.url}/v1/messages`, {
          method: "POST",
          headers: {
            "x-api-key": client.apiKey!,
            "content-type": "application/json",
            "anthropic-version": "2023-06-01",
          },
          body: JSON.stringify({
            model: "claude-sonnet",
            max_tokens: 20,
            stream: true,
            messages: [{ role: "user", content: "[bad-crc] one two three four" }],
          }),
        });
        text = await response.text();
      });
      answers.push(text);
      const frames = text.split("\n\n").filter(Boolean);
      expect(frames[0]).toMatch(/^event: message_start\n/);
      expect(frames.at(-1)).toMatch(/^event: error\ndata: /);
      expect(JSON.parse(frames.at(-1)!.split("\ndata: ")[1]!)).toMatchObject({
        type: "error",
        error: { type: "api_error", message: "The upstream sent a broken event stream frame." },
      });
      // message_start reported the prompt (3 + 5 words): at least that is billed.
      expect(cost).toBeGreaterThanOrEqual(8);
    });

    it("refuses a model that does not take Claude's body before any upstream call, and nothing is billed", async () => {
      const cost = await spent(async () => {
        const refused = await client.messages
          .create({ model: "nova-pro", max_tokens: 10, messages: [{ role: "user", content: "hi" }] })
          .catch((caught: unknown) => caught);
        expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
        expect((refused as Error).message).toContain("Claude models on Bedrock only");
      });
      expect(cost).toBe(0);
      expect(bedrock.requests).toHaveLength(0);
    });

    it("answers a wrong secret with Bedrock's refusal, quoting no credential", async () => {
      const refused: unknown = await client.messages
        .create({ model: "claude-wrong", max_tokens: 10, messages: [{ role: "user", content: "hi" }] })
        .catch((caught: unknown) => caught);
      answers.push(String((refused as Error).message));
      expect(refused).toBeInstanceOf(Anthropic.APIError);
      expect((refused as Error).message).toContain("The request signature we calculated does not match");
    });

    it("never writes the secret access key into a log line or an answer", () => {
      const logText = fs.readFileSync(logFile, "utf8");
      expect(logText.length).toBeGreaterThan(0);
      for (const text of [logText, ...answers])
        for (const secret of [secretAccessKey, "wrongMessagesSecret000"]) expect(text).not.toContain(secret);
    });
  },
);
