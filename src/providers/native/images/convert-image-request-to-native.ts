import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import { InvalidRequestError } from "../../../errors/gateway-error.js";
import type { FetchMedia } from "../../../net/create-safe-fetcher.js";
import { detectImageMimeType } from "../../image-families/detect-image-mime-type.js";
import { mapImageQualityToSize } from "./map-image-quality-to-size.js";
import { mapImageSizeToAspectRatio } from "./map-image-size-to-aspect-ratio.js";
import { nativeImageMimeTypes } from "../../image-families/native-image-mime-types.js";
import { assertInlineDataMatchesType } from "../shared/assert-inline-data-matches-type.js";
import { parseDataUri } from "../../../net/parse-data-uri.js";

type ImageRequest = OpenaiComponents["schemas"]["ImageGenerationRequest"];
type GenerateContentRequest = NativeComponents["schemas"]["GenerateContentRequest"];
type GenerationConfig = NativeComponents["schemas"]["GenerationConfig"];
type ImageConfig = NativeComponents["schemas"]["ImageConfig"];
type Part = NativeComponents["schemas"]["Part"];
type SafetySetting = NativeComponents["schemas"]["SafetySetting"];

export interface ImageToNativeOptions {
  request: ImageRequest;
  /** The SSRF-safe downloader for reference image URLs. */
  fetchMedia: FetchMedia;
  /** Platform default safety settings (config native.safety_settings). */
  safetySettings?: readonly SafetySetting[] | undefined;
}

const base64Pattern = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * An OpenAI-style image request (generations or edits: the same for the native family) → a native generateContent
 * body. The prompt comes first, then the reference images inline (data URIs and raw base64 decoded, URLs downloaded
 * through the safe fetcher; only the documented image types). size → aspectRatio, quality → imageSize (an explicit
 * image_size wins), responseModalities [IMAGE] unless the client chose its own. `n` and `response_format` have no
 * native meaning: one image per call, always returned as base64.
 */
export async function convertImageRequestToNative(options: ImageToNativeOptions): Promise<GenerateContentRequest> {
  const { request } = options;
  const parts = Array.isArray(request.contents)
    ? await readContentsParts(request, options.fetchMedia)
    : await readPromptAndImages(request, options.fetchMedia);

  const imageConfig: ImageConfig = {};
  const aspectRatio = mapImageSizeToAspectRatio(request.size);
  if (aspectRatio !== undefined) imageConfig.aspectRatio = aspectRatio;
  imageConfig.imageSize =
    typeof request.image_size === "string" && request.image_size.trim() !== ""
      ? request.image_size.trim().toUpperCase()
      : mapImageQualityToSize(request.quality);
  if (typeof request.mime_type === "string" && request.mime_type.trim() !== "")
    imageConfig.imageOutputOptions = { mimeType: request.mime_type.trim().toLowerCase() };

  const modalities = (request.response_modalities ?? [])
    .map((modality) => modality.trim().toUpperCase())
    .filter((modality) => modality !== "");
  const generationConfig: GenerationConfig = {
    responseModalities: modalities.length > 0 ? modalities : ["IMAGE"],
    imageConfig,
  };
  if (typeof request.temperature === "number") generationConfig.temperature = request.temperature;
  if (typeof request.top_p === "number") generationConfig.topP = request.top_p;

  const body: GenerateContentRequest = {
    contents: [{ role: "user", parts }],
    generationConfig,
  };
  if (options.safetySettings && options.safetySettings.length > 0) body.safetySettings = [...options.safetySettings];
  return body;
}

/** The prompt first, then the reference images inline. */
async function readPromptAndImages(request: ImageRequest, fetchMedia: FetchMedia): Promise<Part[]> {
  if (typeof request.prompt !== "string" || request.prompt.trim() === "") {
    throw new InvalidRequestError("prompt is required and must not be empty.", { param: "prompt" });
  }
  const references = request.image === undefined ? [] : Array.isArray(request.image) ? request.image : [request.image];
  const imageParts = await Promise.all(
    references.map((reference, index) =>
      readReferenceImage(reference, Array.isArray(request.image) ? `image[${index}]` : "image", fetchMedia),
    ),
  );
  return [{ text: request.prompt }, ...imageParts];
}

/**
 * The multi-family `contents` form: its text and image parts in their order (turns flattened into the one user
 * turn an image generation is), with `prompt`, when also given, first.
 */
async function readContentsParts(request: ImageRequest, fetchMedia: FetchMedia): Promise<Part[]> {
  const sources = (request.contents ?? []).flatMap((turn) => turn.parts);
  const parts = await Promise.all(
    sources.map((part, index): Promise<Part> | Part =>
      "image" in part && typeof part.image === "string"
        ? readReferenceImage(part.image, `contents.parts[${index}].image`, fetchMedia)
        : { text: (part as { text: string }).text },
    ),
  );
  const withPrompt =
    typeof request.prompt === "string" && request.prompt.trim() !== "" ? [{ text: request.prompt }, ...parts] : parts;
  if (!withPrompt.some((part) => typeof part.text === "string" && part.text.trim() !== ""))
    throw new InvalidRequestError("prompt is required and must not be empty.", { param: "prompt" });
  return withPrompt;
}

async function readReferenceImage(reference: string, param: string, fetchMedia: FetchMedia): Promise<Part> {
  const value = reference.trim();
  if (/^data:/i.test(value)) {
    const parsed = parseDataUri(value);
    if (parsed === undefined) throw new InvalidRequestError(`${param} is not a valid base64 data URI.`, { param });
    const part = inlineImage(parsed.mimeType, parsed.data, param);
    assertInlineDataMatchesType(parsed.mimeType, parsed.data, param);
    return part;
  }
  if (/^https?:\/\//i.test(value)) {
    const media = await fetchMedia(value);
    return inlineImage(media.mimeType.toLowerCase(), media.data.toString("base64"), param);
  }
  const data = value.replaceAll(/\s/g, "");
  const mimeType = base64Pattern.test(data) ? detectImageMimeType(Buffer.from(data.slice(0, 64), "base64")) : undefined;
  if (mimeType === undefined) {
    throw new InvalidRequestError(
      `${param} must be an http(s) URL, a data: URI or base64 of a PNG, JPEG, WebP or HEIC/HEIF image.`,
      { param },
    );
  }
  return { inlineData: { mimeType, data } };
}

function inlineImage(mimeType: string, data: string, param: string): Part {
  if (!nativeImageMimeTypes.has(mimeType)) {
    throw new InvalidRequestError(
      `Unsupported reference image MIME type ${mimeType}; allowed: ${[...nativeImageMimeTypes].join(", ")}.`,
      { param },
    );
  }
  return { inlineData: { mimeType, data } };
}
