import type { RelayAttemptInput } from "../contract/relay-attempt-input.js";
import { sendUpstreamJsonRequest } from "../../upstream/send-upstream-json-request.js";
import type { ImageCall } from "../contract/image-call.js";
import { assertFamilyServed } from "../image-families/assert-family-served.js";
import type { ProviderServices } from "../contract/provider-services.js";
import { readImageReferences } from "../image-families/read-image-references.js";
import { toImageFailure } from "../image-families/to-image-failure.js";
import type { ArkImageAnswer } from "./ark-image-wire.js";
import { convertArkImageResponse } from "./convert-ark-image-response.js";
import { convertImageRequestToArk } from "./convert-image-request-to-ark.js";
import { readArkError } from "./read-ark-error.js";

/**
 * One `img-b-` attempt against an ARK channel: `POST /api/v3/images/generations` with the channel's model, the
 * answer converted to the image document's result and billed per image returned; errors by the image table.
 */
export async function relayArkImage(
  call: ImageCall,
  input: RelayAttemptInput,
  services: ProviderServices,
): Promise<void> {
  assertFamilyServed(call.family.name, ["img-b", "img-b-pro"], "ark");
  const family = call.family.name === "img-b-pro" ? "img-b-pro" : "img-b";
  const request = convertImageRequestToArk(family, call.body, input.attempt.upstreamModel);
  try {
    const answer = await sendUpstreamJsonRequest<ArkImageAnswer>(input.attempt, {
      method: "POST",
      path: "/api/v3/images/generations",
      headers: input.upstreamHeaders(),
      body: JSON.stringify(request),
      signal: input.signal,
    });
    const { result, usage } = convertArkImageResponse(answer, {
      model: call.model,
      now: services.now(),
      outputFormat: request.output_format ?? "jpeg",
      inputImages: readImageReferences(call.body).length,
      singleImage: family === "img-b-pro",
    });
    input.observed.usage = usage;
    input.deliver(result);
  } catch (error) {
    throw toImageFailure(error, { readError: readArkError, secrets: input.attempt.channel.keys });
  }
}
