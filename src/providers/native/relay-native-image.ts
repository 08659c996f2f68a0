import type { components as NativeComponents } from "../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../generated/types/openai.js";
import type { RelayAttemptInput } from "../../relay/run-relay.js";
import { sendUpstreamJsonRequest } from "../../relay/send-upstream-json-request.js";
import { convertNativeToImageResult } from "./convert-native-to-image-result.js";

type GenerateContentRequest = NativeComponents["schemas"]["GenerateContentRequest"];
type GenerateContentResponse = NativeComponents["schemas"]["GenerateContentResponse"];
type ImageRequest = OpenaiComponents["schemas"]["ImageGenerationRequest"];

export interface NativeImageCall {
  request: ImageRequest;
  /**
   * The translated body (convertImageRequestToNative). A promise made once per request: a failover to another
   * channel must not download the reference images again.
   */
  translation: Promise<GenerateContentRequest>;
  /** Unix seconds, for `created`. */
  now(): number;
}

/**
 * One image attempt against a native channel: `:generateContent` on the mapped model, the answer converted to the
 * OpenAI-style image result and billed by the images it actually holds (per_image) plus its tokens.
 */
export async function relayNativeImage(call: NativeImageCall, input: RelayAttemptInput): Promise<void> {
  const body = await call.translation;
  const answer = await sendUpstreamJsonRequest<GenerateContentResponse>(input.attempt, {
    method: "POST",
    path: `/v1beta/models/${encodeURIComponent(input.attempt.upstreamModel)}:generateContent`,
    headers: input.upstreamHeaders(),
    body: JSON.stringify(body),
    signal: input.signal,
  });
  const { result, usage } = convertNativeToImageResult(answer, { created: call.now() });
  input.observed.usage = usage;
  input.deliver(result);
}
