import type { GatewayContext } from "../gateway-context.js";
import { performance } from "node:perf_hooks";
import { request } from "undici";
import type { components } from "../../generated/types/management.js";
import { InvalidRequestError, NotFoundError } from "../errors/gateway-error.js";
import { getUpstreamDispatcher } from "../upstream/get-upstream-dispatcher.js";
import { maskUpstreamSecrets } from "../upstream/mask-upstream-secrets.js";
import { readUpstreamErrorMessage } from "../upstream/upstream-failure.js";
import { findChannelById } from "../store/channels/find-channel-by-id.js";
import { channelMessages } from "./channel-messages.js";
import type { ChannelServicesContext } from "./channel-services-context.js";
import { toChannel } from "./to-channel.js";

type ChannelTestResult = components["schemas"]["ChannelTestResult"];

export interface ChannelTestOptions {
  /** The key to test (a health probe tests the key that was taken out); the first one by default. */
  keyIndex?: number;
}

/** A test's outcome with the upstream's status when it answered (a health probe reads it). */
export type ChannelTestOutcome = ChannelTestResult & { upstreamStatus?: number };

/**
 * Sends one tiny request through the channel's pool with one of its keys (disabled channels too: an administrator
 * tests before enabling, and health probes test what was taken out) and reports the outcome. Upstream failures are
 * results, not errors; nothing is billed.
 */
export async function testChannelUpstream(
  context: ChannelServicesContext & Pick<GatewayContext, "findAdapter">,
  channelId: number,
  requestedModel: string | undefined,
  options: ChannelTestOptions = {},
): Promise<ChannelTestOutcome> {
  const record = await findChannelById(context.database.db, channelId);
  if (!record) throw new NotFoundError(channelMessages.notFound);
  const channel = toChannel(record, context.keyCipher, context.config.defaultTimeouts);
  if (!channel)
    throw new InvalidRequestError(`Channel ${channelId} has type "${record.type}", which this gateway cannot call.`);
  const model = requestedModel ?? channel.models[0];
  if (model === undefined || !channel.models.includes(model)) {
    throw new InvalidRequestError(channelMessages.modelNotServed(channelId, model ?? ""), { param: "model" });
  }
  const adapter = context.findAdapter(channel.type);
  const testRequest = adapter.channelTestRequest(channel.modelMapping[model] ?? model, channel);

  const started = performance.now();
  const result = (success: boolean, message: string, upstreamStatus?: number): ChannelTestOutcome => ({
    success,
    latency_ms: Math.max(0, Math.round(performance.now() - started)),
    model,
    // Upstreams sometimes echo the key they refused; none of the channel's keys may leave in a message.
    message: maskUpstreamSecrets(message, channel.keys),
    ...(upstreamStatus !== undefined ? { upstreamStatus } : {}),
  });
  try {
    const key = channel.keys[options.keyIndex ?? 0] ?? channel.keys[0] ?? "";
    const credentials = adapter.channelCredentialHeaders
      ? await adapter.channelCredentialHeaders(channel, key, testRequest)
      : adapter.credentialHeaders(key);
    const response = await request(`${channel.baseUrl}${testRequest.path}`, {
      dispatcher: getUpstreamDispatcher(channel),
      ...(testRequest.method === "GET"
        ? { method: "GET", headers: { accept: "application/json", ...credentials } }
        : {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json", ...credentials },
            body: JSON.stringify(testRequest.body),
          }),
    });
    const bodyText = await response.body.text();
    if (response.statusCode >= 200 && response.statusCode < 300) return result(true, "");
    return result(
      false,
      `upstream answered ${response.statusCode}: ${readUpstreamErrorMessage(bodyText)}`,
      response.statusCode,
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    context.logger.info({ channelId, err: error }, "channel test could not reach the upstream");
    return result(false, `upstream could not be reached: ${reason}`);
  }
}
