import { createSseWriter } from "../../http/sse-writer.js";
import { recordStreamedText } from "../contract/observed-usage.js";
import { pipeUpstreamEvents } from "../../upstream/pipe-upstream-events.js";
import type { RelayAttemptInput } from "../contract/relay-attempt-input.js";
import { sendUpstreamJsonRequest } from "../../upstream/send-upstream-json-request.js";
import { sendUpstreamRequest } from "../../upstream/send-upstream-request.js";
import { type AnthropicUsage, convertAnthropicUsage } from "../anthropic-wire/anthropic-usage.js";
import { formatAnthropicErrorEvent } from "../anthropic-wire/format-anthropic-error-event.js";
import type { MessagesCall } from "../contract/messages-call.js";
import { withClientAnthropicHeaders } from "./anthropic-headers.js";
import { createAnthropicMessagesStreamTransform } from "./create-anthropic-messages-stream-transform.js";

/**
 * One Messages attempt against a Claude channel: the client's body as it sent it (unknown and beta fields too)
 * with the channel's model name, its Anthropic headers, and usage read from the answer or the stream.
 */
export async function relayAnthropicMessages(call: MessagesCall, input: RelayAttemptInput): Promise<void> {
  const stream = call.request.stream === true;
  const upstreamRequest = {
    method: "POST",
    path: "/v1/messages",
    headers: withClientAnthropicHeaders(input.upstreamHeaders({ stream }), call.anthropicHeaders),
    body: JSON.stringify({ ...call.request, model: input.attempt.upstreamModel }),
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
