import type { RelayAttemptInput } from "../contract/relay-attempt-input.js";
import { sendUpstreamJsonRequest } from "../../upstream/send-upstream-json-request.js";
import { downloadResultImages } from "../image-families/download-result-images.js";
import type { ImageCall } from "../contract/image-call.js";
import { assertFamilyServed } from "../image-families/assert-family-served.js";
import type { ProviderServices } from "../contract/provider-services.js";
import { readImgDMessages } from "../image-families/read-img-d-messages.js";
import { toImageFailure } from "../image-families/to-image-failure.js";
import { convertDashscopeImageResponse } from "./convert-dashscope-image-response.js";
import { convertImageRequestToDashscope } from "./convert-image-request-to-dashscope.js";
import type { DashscopeImageAnswer } from "./dashscope-image-wire.js";
import { readDashscopeError } from "./read-dashscope-error.js";

/**
 * One `img-d-` attempt against a DashScope channel: the synchronous multimodal generation call with the channel's
 * model, the answer converted to the image document's result (URLs downloaded and encoded for b64_json) and billed
 * per image returned; errors by the image table.
 */
export async function relayDashscopeImage(
  call: ImageCall,
  input: RelayAttemptInput,
  services: ProviderServices,
): Promise<void> {
  assertFamilyServed(call.family.name, ["img-d"], "dashscope");
  const request = convertImageRequestToDashscope(call.body, call.model, input.attempt.upstreamModel);
  try {
    const answer = await sendUpstreamJsonRequest<DashscopeImageAnswer>(input.attempt, {
      method: "POST",
      path: "/api/v1/services/aigc/multimodal-generation/generation",
      headers: input.upstreamHeaders(),
      body: JSON.stringify(request),
      signal: input.signal,
    });
    const converted = convertDashscopeImageResponse(answer, {
      model: call.model,
      now: services.now(),
      inputImages: readImgDMessages(call.body, call.model).images.length,
    });
    const result =
      call.body.response_format === "b64_json"
        ? await downloadResultImages(converted.result, services.fetchImage)
        : converted.result;
    input.observed.usage = converted.usage;
    input.deliver(result);
  } catch (error) {
    throw toImageFailure(error, { readError: readDashscopeError, secrets: input.attempt.channel.keys });
  }
}
