import type { Response } from "express";
import type { components as NativeComponents } from "../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../generated/types/openai.js";
import { createSseWriter } from "../../http/sse-writer.js";
import type { Logger } from "../../logging/logger.js";
import type { FetchMedia } from "../../net/create-safe-fetcher.js";
import { pipeUpstreamEvents } from "../../relay/pipe-upstream-events.js";
import type { RelayAttemptInput } from "../../relay/run-relay.js";
import { sendUpstreamRequest } from "../../relay/send-upstream-request.js";
import { sendUpstreamJsonRequest } from "../../relay/send-upstream-json-request.js";
import { convertChatRequestToNative, type ChatToNativeResult } from "./convert-chat-request-to-native.js";
import { convertNativeResponseToChat } from "./convert-native-response-to-chat.js";
import { createNativeEventToChatTransform } from "./create-native-event-to-chat-transform.js";
import { formatChatStreamErrorFrame } from "../openai/format-chat-stream-error-frame.js";
import { recordStreamedText } from "../../relay/observed-usage.js";

type ChatRequest = OpenaiComponents["schemas"]["CreateChatCompletionRequest"];
type GenerateContentResponse = NativeComponents["schemas"]["GenerateContentResponse"];
type SafetySetting = NativeComponents["schemas"]["SafetySetting"];

export interface NativeChatDependencies {
  /** Platform default safety settings (config native.safety_settings). */
  safetySettings: readonly SafetySetting[] | undefined;
  /** The SSRF-safe media downloader (createNativeMediaFetcher). */
  fetchMedia: FetchMedia;
  logger: Logger;
  /** Unix seconds, for `created`. */
  now(): number;
  /**
   * Translations of this request already made, by upstream model name: a failover to another channel that maps
   * the model to the same name reuses the translation instead of downloading the request's media again.
   */
  translations?: Map<string, Promise<ChatToNativeResult>>;
}

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
  const translation = await translate(request, input.attempt.upstreamModel, dependencies);
  if (translation.warnings.length > 0) {
    // Field names and settings only; the translator never puts message content into a warning.
    dependencies.logger.debug(
      { requestId: input.requestId, channel: input.attempt.channel.name, warnings: translation.warnings },
      "chat request translated to native with warnings",
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
    transformer: createNativeEventToChatTransform({
      model: request.model,
      includeThoughts: translation.includeThoughts,
      includeUsage: request.stream_options?.include_usage === true,
      created: dependencies.now(),
      onUsage: (usage) => {
        // All zeros means the upstream never reported usage: leave the relay its estimate from the streamed text.
        if (usage.promptTokens > 0 || usage.completionTokens > 0) input.observed.usage = usage;
      },
      onText: (text) => recordStreamedText(input.observed, text),
    }),
  });
}

function translate(
  request: ChatRequest,
  model: string,
  dependencies: NativeChatDependencies,
): Promise<ChatToNativeResult> {
  const cached = dependencies.translations?.get(model);
  if (cached) return cached;
  const translation = convertChatRequestToNative({
    request,
    model,
    safetySettings: dependencies.safetySettings,
    fetchMedia: dependencies.fetchMedia,
  });
  dependencies.translations?.set(model, translation);
  return translation;
}
