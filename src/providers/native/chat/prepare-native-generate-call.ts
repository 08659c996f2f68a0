import type { MeteredUsage } from "../../../billing/metered-usage.js";
import { recordStreamedText } from "../../contract/observed-usage.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import type { UpstreamRequest } from "../../../upstream/send-upstream-request.js";
import type { ChatToNativeResult } from "./convert-chat-request-to-native.js";
import { nativeEndpoints } from "../shared/native-endpoints.js";
import type { NativeChatDependencies } from "./native-chat-dependencies.js";

/**
 * What a chat and a Responses attempt on a native channel share before the call: the translation, remembered per
 * upstream model name (a failover to a channel that maps the model to the same name reuses it instead of downloading
 * the request's media again), its warnings logged (field names and settings only; translators never put message
 * content into a warning), and the generateContent or streamGenerateContent?alt=sse request.
 */
export async function prepareNativeGenerateCall(options: {
  /** "chat" or "Responses", for the warning's message. */
  door: string;
  stream: boolean;
  input: RelayAttemptInput;
  dependencies: NativeChatDependencies;
  translate(upstreamModel: string): Promise<ChatToNativeResult>;
}): Promise<{ translation: ChatToNativeResult; upstreamRequest: UpstreamRequest }> {
  const { input, dependencies } = options;
  const model = input.attempt.upstreamModel;
  let pending = dependencies.translations?.get(model);
  if (!pending) {
    pending = options.translate(model);
    dependencies.translations?.set(model, pending);
  }
  const translation = await pending;
  if (translation.warnings.length > 0) {
    dependencies.logger.debug(
      { requestId: input.requestId, channel: input.attempt.channel.name, warnings: translation.warnings },
      `${options.door} request translated to native with warnings`,
    );
  }
  const endpoints = dependencies.endpoints ?? nativeEndpoints;
  const method = options.stream ? "streamGenerateContent" : "generateContent";
  const modelPath = endpoints.modelMethod(input.attempt, translation.upstreamModel, method);
  return {
    translation,
    upstreamRequest: {
      method: "POST",
      path: options.stream ? `${modelPath}?alt=sse` : modelPath,
      headers: input.upstreamHeaders({ stream: options.stream }),
      body: JSON.stringify(translation.body),
      signal: input.signal,
    },
  };
}

/** The usage and text callbacks of a native stream's transform, feeding the attempt's observed usage. */
export function observeNativeStream(input: RelayAttemptInput): {
  onUsage(usage: MeteredUsage): void;
  onText(text: string): void;
} {
  return {
    onUsage: (usage) => {
      // All zeros means the upstream never reported usage: leave the relay its estimate from the streamed text.
      if (usage.promptTokens > 0 || usage.completionTokens > 0) input.observed.usage = usage;
    },
    onText: (text) => recordStreamedText(input.observed, text),
  };
}
