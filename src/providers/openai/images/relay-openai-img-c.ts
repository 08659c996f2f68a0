import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import { readImagePrompt } from "../../image-families/read-image-prompt.js";
import { toImageFailure } from "../../image-families/to-image-failure.js";
import { buildImgCUpstreamRequest } from "./build-img-c-upstream-request.js";
import { convertOpenaiImageResponse, type OpenaiImageAnswer } from "./convert-openai-image-response.js";
import type { ImgCInputImage } from "./img-c-input-image.js";
import { openaiDialect, type OpenaiDialect } from "../openai-dialect.js";
import { readImgCInputImages } from "./read-img-c-input-images.js";
import { readOpenaiImageError } from "../../image-families/read-openai-image-error.js";
import type { ImageCall, UploadedImageFile } from "../../contract/image-call.js";
import type { ProviderServices } from "../../contract/provider-services.js";

type InputImages = { images: ImgCInputImage[]; mask?: ImgCInputImage };

/** The input images, read (downloaded) once per request: a failover to another channel reuses them. */
function readInputImages(call: ImageCall, input: RelayAttemptInput, services: ProviderServices): Promise<InputImages> {
  return input.remember<Promise<InputImages>>("img-c-input-images", () =>
    call.kind === "json"
      ? readImgCInputImages(call.body, services.fetchImage).then((images) => ({ images }))
      : Promise.resolve(fromUploadedFiles(call.files)),
  );
}

function fromUploadedFiles(files: readonly UploadedImageFile[]): { images: ImgCInputImage[]; mask?: ImgCInputImage } {
  const toImage = (file: UploadedImageFile): ImgCInputImage => ({
    bytes: file.buffer,
    mimeType: file.mimetype,
    filename: file.originalname,
  });
  const mask = files.find((file) => file.fieldname === "mask");
  return {
    images: files.filter((file) => file.fieldname !== "mask").map(toImage),
    ...(mask ? { mask: toImage(mask) } : {}),
  };
}

/**
 * One `img-c-2` attempt against an OpenAI-compatible channel through the OpenAI images API: generations as JSON,
 * or, with input images (JSON references downloaded, or the client's uploaded files), a multipart edit with
 * `image[]` parts. The answer becomes the image document's result, billed per image and token; errors by the
 * image table.
 */
export async function relayOpenaiImgC(
  call: ImageCall,
  input: RelayAttemptInput,
  services: ProviderServices,
  dialect: OpenaiDialect = openaiDialect,
): Promise<void> {
  const { images, mask } = await readInputImages(call, input, services);
  const upstream = buildImgCUpstreamRequest(
    call.body,
    input.attempt.upstreamModel,
    images,
    readImagePrompt(call.body),
    mask,
  );
  try {
    const answer = await sendUpstreamJsonRequest<OpenaiImageAnswer>(input.attempt, {
      method: "POST",
      path: dialect.path(upstream.operation, input.attempt),
      headers: input.upstreamHeaders({ jsonBody: "json" in upstream }),
      body: "json" in upstream ? JSON.stringify(upstream.json) : upstream.form,
      signal: input.signal,
    });
    const { result, usage } = convertOpenaiImageResponse(answer, {
      model: call.model,
      now: services.now(),
      inputImages: images.length,
    });
    input.observed.usage = usage;
    input.deliver(result);
  } catch (error) {
    throw toImageFailure(error, { readError: readOpenaiImageError, secrets: input.attempt.channel.keys });
  }
}
