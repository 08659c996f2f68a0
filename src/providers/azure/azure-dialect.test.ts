import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Channel } from "../contract/channel.js";
import type { ChannelAttempt } from "../contract/channel-attempt.js";
import { InvalidRequestError } from "../../errors/gateway-error.js";
import type { MeteredUsage } from "../../billing/metered-usage.js";
import { createOpenaiChatStreamTransform } from "../openai/chat/create-openai-chat-stream-transform.js";
import { formatChatStreamErrorFrame } from "../../http/format-chat-stream-error-frame.js";
import type { OpenaiOperation } from "../openai/openai-dialect.js";
import { replayUpstreamStream } from "../../../test/support/replay-upstream-stream.js";
import { azureAdapter } from "./adapter.js";
import { azureDialect, removeContentFilterResults } from "./azure-dialect.js";

const readFixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

function attemptOn(apiVersion: string, upstreamModel = "my gpt4o"): ChannelAttempt {
  const channel: Channel = {
    id: 1,
    source: "config",
    name: "azure-eu",
    type: "azure",
    baseUrl: "https://myres.openai.azure.com",
    keys: ["k"],
    models: ["gpt-4o"],
    modelMapping: { "gpt-4o": upstreamModel },
    groups: ["default"],
    priority: 0,
    weight: 1,
    enabled: true,
    timeouts: { connectMs: 1, headerMs: 1, idleMs: 1 },
    settings: { api_version: apiVersion },
  };
  return { channel, group: "default", upstreamModel, upstreamKey: "k" };
}

const operations: OpenaiOperation[] = [
  "chat/completions",
  "embeddings",
  "images/generations",
  "images/edits",
  "audio/speech",
  "audio/transcriptions",
  "audio/translations",
];

describe("Azure OpenAI paths", () => {
  it("puts a dated api-version's operations under the deployment (the mapped model, URL-encoded)", () => {
    expect(operations.map((operation) => azureDialect.path(operation, attemptOn("2024-10-21")))).toEqual(
      operations.map((operation) => `/openai/deployments/my%20gpt4o/${operation}?api-version=2024-10-21`),
    );
  });

  it("puts every operation under /openai/v1/ on the v1 surface, Responses included", () => {
    expect(azureDialect.path("responses", attemptOn("v1"))).toBe("/openai/v1/responses");
    expect(azureDialect.path("chat/completions", attemptOn("v1"))).toBe("/openai/v1/chat/completions");
  });

  it("serves Responses on a preview api-version and refuses it on a GA one, naming the setting", () => {
    expect(azureDialect.path("responses", attemptOn("2025-04-01-preview"))).toBe(
      "/openai/responses?api-version=2025-04-01-preview",
    );
    let refusal: unknown;
    try {
      azureDialect.path("responses", attemptOn("2024-10-21"));
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(InvalidRequestError);
    expect(refusal).toMatchObject({
      status: 400,
      param: "settings.api_version",
      message:
        'The Responses API is not served by channel "azure-eu": Azure OpenAI serves it on the v1 surface or a preview api-version, and the channel\'s settings.api_version is "2024-10-21" (set it to "v1").',
    });
  });

  it("tests a channel with one token of chat on its own api version", () => {
    expect(azureAdapter.channelTestRequest("my-deployment", attemptOn("2024-10-21").channel)).toEqual({
      method: "POST",
      path: "/openai/deployments/my-deployment/chat/completions?api-version=2024-10-21",
      body: { model: "my-deployment", messages: [{ role: "user", content: "ping" }], max_tokens: 1 },
    });
    expect(azureAdapter.credentialHeaders("secret")).toEqual({ "api-key": "secret" });
  });
});

describe("Azure OpenAI answers", () => {
  it("drops the content filter's annotations from a recorded JSON answer", () => {
    const answer = JSON.parse(readFixture("chat-text.json").toString("utf8")) as Record<string, unknown>;
    expect(removeContentFilterResults(answer)).toBe(true);
    expect(answer).toEqual({
      choices: [
        {
          finish_reason: "stop",
          index: 0,
          logprobs: null,
          message: { annotations: [], content: "Hello! How can", refusal: null, role: "assistant" },
        },
      ],
      created: 1764230000,
      id: "chatcmpl-AzUre2",
      model: "gpt-4o-2024-11-20",
      object: "chat.completion",
      system_fingerprint: "fp_azure1",
      usage: { completion_tokens: 4, prompt_tokens: 9, total_tokens: 13 },
    });
  });

  it("replays a recorded Azure stream: the prompt-filter chunk is not sent, no chunk keeps filter results", async () => {
    const usage: MeteredUsage[] = [];
    const frames = await replayUpstreamStream(
      new Uint8Array(readFixture("chat-text.chunks.txt")),
      [],
      createOpenaiChatStreamTransform({
        clientModel: "gpt-4o",
        clientWantsUsage: true,
        thinkingToContent: false,
        cleanChunk: azureDialect.cleanAnswer,
        onUsage: (reported) => usage.push(reported),
        onText: () => {},
      }),
      formatChatStreamErrorFrame,
    );
    expect(frames).toHaveLength(8);
    expect(frames.join("")).not.toContain("filter_results");
    const payloads = frames.slice(0, -1).map((frame) => JSON.parse(frame.slice("data: ".length)));
    expect(payloads.every((payload) => payload.model === "gpt-4o" && payload.id === "chatcmpl-AzUre1")).toBe(true);
    expect(payloads.map((payload) => payload.choices[0]?.delta.content ?? "").join("")).toBe("Hello! How can");
    expect(frames.at(-1)).toBe("data: [DONE]\n\n");
    expect(usage).toEqual([{ promptTokens: 9, completionTokens: 4, cachedTokens: 0, reasoningTokens: 0 }]);
  });
});
