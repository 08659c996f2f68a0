import { performance } from "node:perf_hooks";
import { request } from "undici";
import type { components } from "../../generated/types/management.js";
import { InvalidRequestError } from "../errors/invalid-request-error.js";
import { NotFoundError } from "../errors/not-found-error.js";
import { getUpstreamDispatcher } from "../relay/get-upstream-dispatcher.js";
import { maskUpstreamSecrets } from "../relay/mask-upstream-secrets.js";
import { readUpstreamErrorMessage } from "../relay/read-upstream-error-message.js";
import { findChannelById } from "../store/channels/find-channel-by-id.js";
import type { Channel } from "./channel.js";
import { channelMessages } from "./channel-messages.js";
import type { ChannelServicesContext } from "./channel-services-context.js";
import { toChannel } from "./to-channel.js";

type ChannelTestResult = components["schemas"]["ChannelTestResult"];

interface TestRequest {
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** The smallest real request the upstream protocol accepts: one short message, one output token. */
function buildTestRequest(channel: Channel, upstreamModel: string, key: string): TestRequest {
  switch (channel.type) {
    case "openai":
      return {
        path: "/v1/chat/completions",
        headers: { authorization: `Bearer ${key}` },
        body: { model: upstreamModel, messages: [{ role: "user", content: "ping" }], max_tokens: 1 },
      };
    case "native":
      return {
        path: `/v1beta/models/${encodeURIComponent(upstreamModel)}:generateContent`,
        headers: { "x-goog-api-key": key },
        body: { contents: [{ role: "user", parts: [{ text: "ping" }] }], generationConfig: { maxOutputTokens: 1 } },
      };
  }
}

/**
 * Sends one tiny request through the channel's pool with its first key (disabled channels too: an administrator
 * tests before enabling) and reports the outcome. Upstream failures are results, not errors; nothing is billed.
 */
export async function testChannelUpstream(
  context: ChannelServicesContext,
  channelId: number,
  requestedModel: string | undefined,
): Promise<ChannelTestResult> {
  const record = await findChannelById(context.database.db, channelId);
  if (!record) throw new NotFoundError(channelMessages.notFound);
  const channel = toChannel(record, context.keyCipher, context.config.defaultTimeouts);
  if (!channel)
    throw new InvalidRequestError(`Channel ${channelId} has type "${record.type}", which this gateway cannot call.`);
  const model = requestedModel ?? channel.models[0];
  if (model === undefined || !channel.models.includes(model)) {
    throw new InvalidRequestError(channelMessages.modelNotServed(channelId, model ?? ""), { param: "model" });
  }
  const testRequest = buildTestRequest(channel, channel.modelMapping[model] ?? model, channel.keys[0] ?? "");

  const started = performance.now();
  const result = (success: boolean, message: string): ChannelTestResult => ({
    success,
    latency_ms: Math.max(0, Math.round(performance.now() - started)),
    model,
    // Upstreams sometimes echo the key they refused; none of the channel's keys may leave in a message.
    message: maskUpstreamSecrets(message, channel.keys),
  });
  try {
    const response = await request(`${channel.baseUrl}${testRequest.path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...testRequest.headers },
      body: JSON.stringify(testRequest.body),
      dispatcher: getUpstreamDispatcher(channel),
    });
    const bodyText = await response.body.text();
    if (response.statusCode >= 200 && response.statusCode < 300) return result(true, "");
    return result(false, `upstream answered ${response.statusCode}: ${readUpstreamErrorMessage(bodyText)}`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    context.logger.info({ channelId, err: error }, "channel test could not reach the upstream");
    return result(false, `upstream could not be reached: ${reason}`);
  }
}
