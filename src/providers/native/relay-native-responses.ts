import type { components as NativeComponents } from "../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../generated/types/openai.js";
import { createSseWriter } from "../../http/sse-writer.js";
import { recordStreamedText } from "../../relay/observed-usage.js";
import { pipeUpstreamEvents } from "../../relay/pipe-upstream-events.js";
import type { RelayAttemptInput } from "../../relay/run-relay.js";
import { sendUpstreamJsonRequest } from "../../relay/send-upstream-json-request.js";
import { sendUpstreamRequest } from "../../relay/send-upstream-request.js";
import type { ChatToNativeResult } from "./convert-chat-request-to-native.js";
import { convertNativeResponseToResponses } from "./convert-native-response-to-responses.js";
import { convertResponsesRequestToNative } from "./convert-responses-request-to-native.js";
import { createNativeEventToResponsesTransform } from "./create-native-event-to-responses-transform.js";
import type { NativeChatDependencies } from "./relay-native-chat.js";

type ResponsesRequest = OpenaiComponents["schemas"]["CreateResponseRequest"];
type GenerateContentResponse = NativeComponents["schemas"]["GenerateContentResponse"];

/**
 * One Responses attempt against a native channel, as relayNativeChat does chat: the request is translated (through
 * the chat rules), sent to generateContent or streamGenerateContent?alt=sse, and the answer converted to the
 * Responses object or event sequence. Billing reads the usage the converters report, as for chat.
 */
export async function relayNativeResponses(
  request: ResponsesRequest,
  input: RelayAttemptInput,
  dependencies: NativeChatDependencies,
): Promise<void> {
  const translation = await translate(request, input.attempt.upstreamModel, dependencies);
  if (translation.warnings.length > 0) {
    dependencies.logger.debug(
      { requestId: input.requestId, channel: input.attempt.channel.name, warnings: translation.warnings },
      "Responses request translated to native with warnings",
    );
  }
  const modelPath = encodeURIComponent(translation.upstreamModel);
  const upstreamRequest = {
    method: "POST",
    path: request.stream
      ? `/v1beta/models/${modelPath}:streamGenerateContent?alt=sse`
      : `/v1beta/models/${modelPath}:generateContent`,
    headers: input.upstreamHeaders({ stream: request.stream === true }),
    body: JSON.stringify(translation.body),
    signal: input.signal,
  } as const;

  if (!request.stream) {
    const answer = await sendUpstreamJsonRequest<GenerateContentResponse>(input.attempt, upstreamRequest);
    const converted = convertNativeResponseToResponses(answer, {
      model: request.model,
      includeThoughts: translation.includeThoughts,
      created: dependencies.now(),
    });
    input.observed.usage = converted.usage;
    input.deliver(converted.response);
    return;
  }

  const upstream = await sendUpstreamRequest(input.attempt, upstreamRequest);
  const { transformer, errorFrame } = createNativeEventToResponsesTransform({
    model: request.model,
    includeThoughts: translation.includeThoughts,
    created: dependencies.now(),
    onUsage: (usage) => {
      // All zeros means the upstream never reported usage: leave the relay its estimate from the streamed text.
      if (usage.promptTokens > 0 || usage.completionTokens > 0) input.observed.usage = usage;
    },
    onText: (text) => recordStreamedText(input.observed, text),
  });
  await pipeUpstreamEvents({
    upstreamBody: upstream.body,
    writer: createSseWriter(input.response),
    errorFrame,
    transformer,
  });
}

function translate(
  request: ResponsesRequest,
  model: string,
  dependencies: NativeChatDependencies,
): Promise<ChatToNativeResult> {
  const cached = dependencies.translations?.get(model);
  if (cached) return cached;
  const translation = convertResponsesRequestToNative({
    request,
    model,
    safetySettings: dependencies.safetySettings,
    fetchMedia: dependencies.fetchMedia,
  });
  dependencies.translations?.set(model, translation);
  return translation;
}
