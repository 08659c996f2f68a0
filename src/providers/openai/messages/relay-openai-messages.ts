import type { components } from "../../../../generated/types/openai.js";
import { createSseWriter } from "../../../http/sse-writer.js";
import { recordStreamedText } from "../../contract/observed-usage.js";
import { pipeUpstreamEvents } from "../../../upstream/pipe-upstream-events.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import { sendUpstreamRequest } from "../../../upstream/send-upstream-request.js";
import { formatAnthropicErrorEvent } from "../../anthropic-wire/format-anthropic-error-event.js";
import type { MessagesCall } from "../../contract/messages-call.js";
import { convertOpenaiChatUsage } from "../convert-openai-usage.js";
import { ChatToMessagesStreamTransform } from "./chat-to-messages-stream-transform.js";
import { convertChatCompletionToMessage } from "./convert-chat-completion-to-message.js";
import { convertMessagesRequestToChat } from "./convert-messages-request-to-chat.js";

type ChatCompletion = components["schemas"]["ChatCompletion"];

/** One Messages attempt against an OpenAI-compatible channel: translated to chat completions and back. */
export async function relayOpenaiMessages(call: MessagesCall, input: RelayAttemptInput): Promise<void> {
  const body = convertMessagesRequestToChat(call.request, input.attempt.upstreamModel);
  const stream = call.request.stream === true;
  const upstreamRequest = {
    method: "POST",
    path: "/v1/chat/completions",
    headers: input.upstreamHeaders({ stream }),
    body: JSON.stringify(body),
    signal: input.signal,
  } as const;

  if (!stream) {
    const completion = await sendUpstreamJsonRequest<ChatCompletion>(input.attempt, upstreamRequest);
    if (completion.usage) input.observed.usage = convertOpenaiChatUsage(completion.usage);
    input.deliver(convertChatCompletionToMessage(completion, call.request.model));
    return;
  }

  const upstream = await sendUpstreamRequest(input.attempt, upstreamRequest);
  await pipeUpstreamEvents({
    upstreamBody: upstream.body,
    channelKeys: input.attempt.channel.keys,
    writer: createSseWriter(input.response),
    errorFrame: (message) => formatAnthropicErrorEvent(message, input.requestId),
    transformer: new ChatToMessagesStreamTransform({
      clientModel: call.request.model,
      requestId: input.requestId,
      promptTokenEstimate: call.promptTokenEstimate,
      onUsage: (usage) => {
        input.observed.usage = usage;
      },
      onText: (text) => recordStreamedText(input.observed, text),
    }),
  });
}
