import type { Response } from "express";
import type { NativeChatDependencies } from "./native-chat-dependencies.js";
import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import { createSseWriter } from "../../../http/sse-writer.js";
import { pipeUpstreamEvents } from "../../../upstream/pipe-upstream-events.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { sendUpstreamRequest } from "../../../upstream/send-upstream-request.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import { convertChatRequestToNative } from "./convert-chat-request-to-native.js";
import { observeNativeStream, prepareNativeGenerateCall } from "./prepare-native-generate-call.js";
import { convertNativeResponseToChat } from "./convert-native-response-to-chat.js";
import { createNativeEventToChatTransform } from "./create-native-event-to-chat-transform.js";
import { formatChatStreamErrorFrame } from "../../../http/format-chat-stream-error-frame.js";

type ChatRequest = OpenaiComponents["schemas"]["CreateChatCompletionRequest"];
type GenerateContentResponse = NativeComponents["schemas"]["GenerateContentResponse"];

/**
 * One chat attempt against a native channel. `attempt.upstreamModel` is the channel's name for the model with the
 * client's thinking suffix still on (the handler appends it after model_mapping); the translator splits it off
 * again for the URL and turns it into thinkingConfig. Non-streaming answers are converted whole; streams go event
 * by event through the native→chat transform, which reports the usage once at the end (or when cut short).
 */
export async function relayNativeChat(
  request: ChatRequest,
  response: Response,
  input: RelayAttemptInput,
  dependencies: NativeChatDependencies,
): Promise<void> {
  const { translation, upstreamRequest } = await prepareNativeGenerateCall({
    door: "chat",
    stream: request.stream === true,
    input,
    dependencies,
    translate: (model) =>
      convertChatRequestToNative({
        request,
        model,
        safetySettings: dependencies.safetySettings,
        fetchMedia: dependencies.fetchMedia,
      }),
  });

  if (!request.stream) {
    const answer = await sendUpstreamJsonRequest<GenerateContentResponse>(input.attempt, upstreamRequest);
    const { completion, usage } = convertNativeResponseToChat(answer, {
      model: request.model,
      includeThoughts: translation.includeThoughts,
      created: dependencies.now(),
    });
    input.observed.usage = usage;
    input.deliver(completion);
    return;
  }

  const upstream = await sendUpstreamRequest(input.attempt, upstreamRequest);
  await pipeUpstreamEvents({
    upstreamBody: upstream.body,
    writer: createSseWriter(response),
    errorFrame: formatChatStreamErrorFrame,
    channelKeys: input.attempt.channel.keys,
    transformer: createNativeEventToChatTransform({
      model: request.model,
      includeThoughts: translation.includeThoughts,
      includeUsage: request.stream_options?.include_usage === true,
      created: dependencies.now(),
      ...observeNativeStream(input),
    }),
  });
}
