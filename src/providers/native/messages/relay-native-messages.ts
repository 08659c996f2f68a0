import type { components as NativeComponents } from "../../../../generated/types/native.js";
import { createSseWriter } from "../../../http/sse-writer.js";
import { pipeUpstreamEvents } from "../../../upstream/pipe-upstream-events.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import { sendUpstreamRequest } from "../../../upstream/send-upstream-request.js";
import { anthropicIdlePing } from "../../anthropic-wire/anthropic-idle-ping.js";
import { formatAnthropicErrorEvent } from "../../anthropic-wire/format-anthropic-error-event.js";
import type { MessagesCall } from "../../contract/messages-call.js";
import { observeNativeStream, prepareNativeGenerateCall } from "../chat/prepare-native-generate-call.js";
import type { NativeChatDependencies } from "../chat/native-chat-dependencies.js";
import { convertMessagesRequestToNative } from "./convert-messages-request-to-native.js";
import { convertNativeResponseToMessage } from "./convert-native-response-to-message.js";
import { createNativeToMessagesStreamTransform } from "./create-native-to-messages-stream-transform.js";

type GenerateContentResponse = NativeComponents["schemas"]["GenerateContentResponse"];

/**
 * One Messages attempt against a native channel, as relayNativeChat does chat: translated to generateContent (or
 * streamGenerateContent?alt=sse), the answer converted to Anthropic's message or event sequence, billed from the
 * native usage.
 */
export async function relayNativeMessages(
  call: MessagesCall,
  input: RelayAttemptInput,
  dependencies: NativeChatDependencies,
): Promise<void> {
  const { request } = call;
  const stream = request.stream === true;
  const { translation, upstreamRequest } = await prepareNativeGenerateCall({
    door: "Messages",
    stream,
    input,
    dependencies,
    translate: (model) =>
      convertMessagesRequestToNative({
        request,
        model,
        safetySettings: dependencies.safetySettings,
        fetchMedia: dependencies.fetchMedia,
      }),
  });

  if (!stream) {
    const answer = await sendUpstreamJsonRequest<GenerateContentResponse>(input.attempt, upstreamRequest);
    const { message, usage } = convertNativeResponseToMessage(answer, {
      model: request.model,
      includeThoughts: translation.includeThoughts,
      created: dependencies.now(),
    });
    input.observed.usage = usage;
    input.deliver(message);
    return;
  }

  const upstream = await sendUpstreamRequest(input.attempt, upstreamRequest);
  await pipeUpstreamEvents({
    upstreamBody: upstream.body,
    channelKeys: input.attempt.channel.keys,
    writer: createSseWriter(input.response),
    errorFrame: (message) => formatAnthropicErrorEvent(message, input.requestId),
    idlePing: anthropicIdlePing,
    transformer: createNativeToMessagesStreamTransform({
      clientModel: request.model,
      requestId: input.requestId,
      includeThoughts: translation.includeThoughts,
      promptTokenEstimate: call.promptTokenEstimate,
      created: dependencies.now(),
      ...observeNativeStream(input),
    }),
  });
}
