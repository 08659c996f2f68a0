import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import type { ImageCall } from "../../contract/image-call.js";
import { assertFamilyServed } from "../../image-families/assert-family-served.js";
import type { ProviderServices } from "../../contract/provider-services.js";
import { toImageFailure } from "../../image-families/to-image-failure.js";
import { readOpenaiImageError } from "../../image-families/read-openai-image-error.js";
import { convertImageRequestToNative } from "./convert-image-request-to-native.js";
import { convertNativeToImageResult } from "./convert-native-to-image-result.js";
import { nativeEndpoints, type NativeEndpoints } from "../shared/native-endpoints.js";

type GenerateContentRequest = NativeComponents["schemas"]["GenerateContentRequest"];
type GenerateContentResponse = NativeComponents["schemas"]["GenerateContentResponse"];
type ImageRequest = OpenaiComponents["schemas"]["ImageGenerationRequest"];

/**
 * One `gmx-` image attempt against a native channel: `:generateContent` on the mapped model, the answer converted
 * to the native family's OpenAI-style image result and billed by the images it actually holds (per_image) plus
 * its tokens; errors by the image table. The translation (reference downloads included) is made once per request.
 */
export async function relayNativeImage(
  call: ImageCall,
  input: RelayAttemptInput,
  services: ProviderServices,
  endpoints: NativeEndpoints = nativeEndpoints,
): Promise<void> {
  assertFamilyServed(call.family.name, ["gmx"], "native");
  const body = await input.remember<Promise<GenerateContentRequest>>("native-image-translation", () =>
    convertImageRequestToNative({
      request: { ...call.body, model: call.model } as ImageRequest,
      fetchMedia: services.fetchImage,
      safetySettings: services.safetySettings,
    }),
  );
  try {
    const answer = await sendUpstreamJsonRequest<GenerateContentResponse>(input.attempt, {
      method: "POST",
      path: endpoints.modelMethod(input.attempt, input.attempt.upstreamModel, "generateContent"),
      headers: input.upstreamHeaders(),
      body: JSON.stringify(body),
      signal: input.signal,
    });
    const { result, usage } = convertNativeToImageResult(answer, { created: services.now() });
    input.observed.usage = usage;
    input.deliver(result);
  } catch (error) {
    throw toImageFailure(error, { readError: readOpenaiImageError, secrets: input.attempt.channel.keys });
  }
}
