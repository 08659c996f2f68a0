import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import { createSseWriter } from "../../../http/sse-writer.js";
import { pipeUpstreamEvents } from "../../../upstream/pipe-upstream-events.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import { sendUpstreamRequest } from "../../../upstream/send-upstream-request.js";
import { convertNativeResponseToResponses } from "./convert-native-response-to-responses.js";
import { convertResponsesRequestToNative } from "./convert-responses-request-to-native.js";
import { createNativeEventToResponsesTransform } from "./create-native-event-to-responses-transform.js";
import { echoResponseSettings } from "../../../http/echo-response-settings.js";
import { observeNativeStream, prepareNativeGenerateCall } from "../chat/prepare-native-generate-call.js";
import type { NativeChatDependencies } from "../chat/native-chat-dependencies.js";

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
  const { translation, upstreamRequest } = await prepareNativeGenerateCall({
    door: "Responses",
    stream: request.stream === true,
    input,
    dependencies,
    translate: (model) =>
      convertResponsesRequestToNative({
        request,
        model,
        safetySettings: dependencies.safetySettings,
        fetchMedia: dependencies.fetchMedia,
      }),
  });

  if (!request.stream) {
    const answer = await sendUpstreamJsonRequest<GenerateContentResponse>(input.attempt, upstreamRequest);
    const converted = convertNativeResponseToResponses(answer, {
      model: request.model,
      includeThoughts: translation.includeThoughts,
      created: dependencies.now(),
      settings: echoResponseSettings(request),
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
    settings: echoResponseSettings(request),
    now: () => dependencies.now(),
    ...observeNativeStream(input),
  });
  await pipeUpstreamEvents({
    upstreamBody: upstream.body,
    writer: createSseWriter(input.response),
    errorFrame,
    transformer,
    channelKeys: input.attempt.channel.keys,
  });
}
