import { createSseWriter } from "../../http/sse-writer.js";
import { recordStreamedText } from "../contract/observed-usage.js";
import { pipeUpstreamEvents } from "../../upstream/pipe-upstream-events.js";
import type { RelayAttemptInput } from "../contract/relay-attempt-input.js";
import { sendUpstreamJsonRequest } from "../../upstream/send-upstream-json-request.js";
import { sendUpstreamRequest } from "../../upstream/send-upstream-request.js";
import { type AnthropicUsage, convertAnthropicUsage } from "../anthropic-wire/anthropic-usage.js";
import { formatAnthropicErrorEvent } from "../anthropic-wire/format-anthropic-error-event.js";
import type { MessagesCall } from "../contract/messages-call.js";
import { type AnthropicEndpoint, anthropicOwnEndpoint } from "./anthropic-endpoint.js";
import { withClientAnthropicHeaders } from "./anthropic-headers.js";
import { createAnthropicMessagesStreamTransform } from "../anthropic-wire/create-anthropic-messages-stream-transform.js";

/**
 * One Messages attempt against a Claude channel: the client's body as it sent it (unknown and beta fields too)
 * with the channel's model name, its Anthropic headers, and usage read from the answer or the stream. `endpoint`
 * says where (Claude's own API, or a cloud hosting Claude).
 */
export async function relayAnthropicMessages(
  call: MessagesCall,
  input: RelayAttemptInput,
  endpoint: AnthropicEndpoint = anthropicOwnEndpoint,
): Promise<void> {
  const stream = call.request.stream === true;
  const { model: _clientModel, ...body } = call.request;
  const upstreamRequest = {
    method: "POST",
    path: endpoint.path(input.attempt, stream),
    headers: withClientAnthropicHeaders(input.upstreamHeaders({ stream }), call.anthropicHeaders, {
      version: endpoint.forwardsVersionHeader,
    }),
    body: JSON.stringify(endpoint.body(body, input.attempt, stream)),
    signal: input.signal,
  } as const;

  if (!stream) {
    const message = await sendUpstreamJsonRequest<{ model?: string; usage?: AnthropicUsage }>(
      input.attempt,
      upstreamRequest,
    );
    if (message.usage) input.observed.usage = convertAnthropicUsage(message.usage);
    message.model = call.request.model;
    input.deliver(message);
    return;
  }

  const upstream = await sendUpstreamRequest(input.attempt, upstreamRequest);
  await pipeUpstreamEvents({
    upstreamBody: upstream.body,
    channelKeys: input.attempt.channel.keys,
    writer: createSseWriter(input.response),
    errorFrame: (message) => formatAnthropicErrorEvent(message, input.requestId),
    transformer: createAnthropicMessagesStreamTransform({
      clientModel: call.request.model,
      requestId: input.requestId,
      onUsage: (usage) => {
        input.observed.usage = usage;
      },
      onText: (text) => recordStreamedText(input.observed, text),
    }),
  });
}
