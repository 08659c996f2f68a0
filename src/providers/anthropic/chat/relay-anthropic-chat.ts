import type { components } from "../../../../generated/types/openai.js";
import { withoutInjectedDefaults } from "../../../http/client-body-fields.js";
import { createSseWriter } from "../../../http/sse-writer.js";
import { recordStreamedText } from "../../contract/observed-usage.js";
import { pipeUpstreamEvents } from "../../../upstream/pipe-upstream-events.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import { sendUpstreamRequest } from "../../../upstream/send-upstream-request.js";
import { type AnthropicUsage, convertAnthropicUsage } from "../../anthropic-wire/anthropic-usage.js";
import { formatChatStreamErrorFrame } from "../../../http/format-chat-stream-error-frame.js";
import { ClaudeToChatStreamTransform } from "./claude-to-chat-stream-transform.js";
import { convertChatRequestToMessages } from "./convert-chat-request-to-messages.js";
import { convertMessageToChatCompletion } from "./convert-message-to-chat-completion.js";

type ChatRequest = components["schemas"]["CreateChatCompletionRequest"];

/** One chat completions attempt against a Claude channel, on Claude's own protocol. */
export async function relayAnthropicChat(request: ChatRequest, input: RelayAttemptInput): Promise<void> {
  const clientRequest = withoutInjectedDefaults(request, input.response);
  const body = convertChatRequestToMessages(clientRequest, input.attempt.upstreamModel);
  const stream = request.stream === true;
  const upstreamRequest = {
    method: "POST",
    path: "/v1/messages",
    headers: input.upstreamHeaders({ stream }),
    body: JSON.stringify(body),
    signal: input.signal,
  } as const;
  const created = Math.floor(Date.now() / 1000);

  if (!stream) {
    const message = await sendUpstreamJsonRequest<Parameters<typeof convertMessageToChatCompletion>[0]>(
      input.attempt,
      upstreamRequest,
    );
    if (message.usage) input.observed.usage = convertAnthropicUsage(message.usage as AnthropicUsage);
    input.deliver(convertMessageToChatCompletion(message, request.model, created));
    return;
  }

  const upstream = await sendUpstreamRequest(input.attempt, upstreamRequest);
  await pipeUpstreamEvents({
    upstreamBody: upstream.body,
    channelKeys: input.attempt.channel.keys,
    writer: createSseWriter(input.response),
    errorFrame: formatChatStreamErrorFrame,
    transformer: new ClaudeToChatStreamTransform({
      clientModel: request.model,
      clientWantsUsage: request.stream_options?.include_usage === true,
      created,
      onUsage: (usage) => {
        input.observed.usage = usage;
      },
      onText: (text) => recordStreamedText(input.observed, text),
    }),
  });
}
