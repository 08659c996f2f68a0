import { InvalidRequestError } from "../../errors/gateway-error.js";
import { createInvalidVideoParameter } from "../../video/create-invalid-video-parameter.js";
import { createInvalidVideoRequest } from "../../video/create-invalid-video-request.js";
import type { VideoBillingBasis } from "../../video/video-billing-basis.js";
import type { VideoGenerationRequest } from "../../video/video-generation-request.js";
import type { DashScopeVideoRequestBody } from "./dashscope-video-task-types.js";

export interface DashScopeVideoSubmission {
  body: DashScopeVideoRequestBody;
  billing: VideoBillingBasis;
}

type Variant = "2.5-t2v" | "2.5-i2v" | "2.7-videoedit" | "2.7";
type Fields = Record<string, unknown>;

const ratios = ["16:9", "9:16", "1:1", "4:3", "3:4"];
const maximumSeed = 2147483647;
/**
 * The edit model takes source videos of 2 to 10 seconds and makes at most as long again; the reservation assumes the
 * longest source, and settlement bills the input plus output seconds the provider reports.
 */
const longestEditSourceSeconds = 10;
const longestEditOutputSeconds = 10;
const maximumEditReferenceImages = 4;

/**
 * A vid-c submit body → a DashScope video-synthesis body, after the family's rules. The preferred form is
 * `metadata.input` and `metadata.parameters`; the top-level fields fill what they leave out, and where both are given
 * `metadata.parameters` wins, for the body and for the reservation. vid-c2.7 t2v/i2v/r2v: the fields the product
 * documents do not list go through in `metadata` unchanged.
 */
export function convertVideoRequestToDashScope(
  request: VideoGenerationRequest,
  upstreamModel: string,
): DashScopeVideoSubmission {
  const variant = classify(request.model);
  const input = readObject(request.metadata?.input, "metadata.input", request.model);
  const parameters = readObject(request.metadata?.parameters, "metadata.parameters", request.model);
  const prompt = readPrompt(request, input, variant);

  switch (variant) {
    case "2.5-t2v":
    case "2.5-i2v":
      return convertWan25(request, variant, input, parameters, prompt, upstreamModel);
    case "2.7-videoedit":
      return convertVideoEdit(request, input, parameters, prompt as string, upstreamModel);
    case "2.7":
      return convertWan27(request, input, parameters, prompt, upstreamModel);
  }
}

function classify(model: string): Variant {
  if (model.startsWith("vid-c2.5-t2v")) return "2.5-t2v";
  if (model.startsWith("vid-c2.5-i2v")) return "2.5-i2v";
  if (model.startsWith("vid-c2.7-videoedit")) return "2.7-videoedit";
  if (/^vid-c2\.7-(t2v|i2v|r2v)/.test(model)) return "2.7";
  throw createInvalidVideoRequest("model", `${model} is not a vid-c- model served by dashscope channels.`);
}

/** `metadata.input.prompt` and the top-level prompt must agree; the edit model needs both. */
function readPrompt(request: VideoGenerationRequest, input: Fields | undefined, variant: Variant): string | undefined {
  const topLevel = nonEmptyString(request.prompt);
  const inner = nonEmptyString(input?.prompt);
  if (variant === "2.7-videoedit") {
    if (topLevel === undefined) throw createInvalidVideoRequest("prompt", `prompt is required for ${request.model}.`);
    if (inner === undefined)
      throw createInvalidVideoRequest(
        "metadata.input.prompt",
        `metadata.input.prompt is required for ${request.model}.`,
      );
  } else if (input !== undefined && inner === undefined && variant !== "2.7") {
    throw createInvalidVideoRequest("metadata.input.prompt", `metadata.input.prompt is required for ${request.model}.`);
  }
  if (topLevel !== undefined && inner !== undefined && topLevel !== inner)
    throw createInvalidVideoRequest(
      "metadata.input.prompt",
      `metadata.input.prompt must equal the top-level prompt for ${request.model}.`,
    );
  const prompt = inner ?? topLevel;
  if (prompt === undefined && variant !== "2.7")
    throw createInvalidVideoRequest("prompt", `prompt is required for ${request.model}.`);
  return prompt;
}

function convertWan25(
  request: VideoGenerationRequest,
  variant: "2.5-t2v" | "2.5-i2v",
  input: Fields | undefined,
  parameters: Fields | undefined,
  prompt: string | undefined,
  upstreamModel: string,
): DashScopeVideoSubmission {
  const model = request.model;
  const duration = pick(parameters, "duration", request.duration, 5);
  if (![5, 10].includes(duration.value as number))
    throw createInvalidVideoParameter(duration.field, "one of 5, 10", model);
  const resolution = readResolution(request, parameters, ["480P", "720P", "1080P"]) ?? "720P";
  const ratio = readRatio(request, parameters);
  const seed = pick(parameters, "seed", request.seed, undefined);
  if (seed.value !== undefined && !isIntegerIn(seed.value, 0, maximumSeed))
    throw createInvalidVideoParameter(seed.field, `an integer from 0 to ${maximumSeed}`, model);
  if (request.size !== undefined) {
    if (variant !== "2.5-t2v") throw createInvalidVideoParameter("size", "absent (text-to-video only)", model);
    if (!/^\d+\*\d+$/.test(request.size))
      throw createInvalidVideoParameter("size", "width*height, for example 1280*720", model);
  }
  if (request.audio_url !== undefined && !/^https:\/\//i.test(request.audio_url))
    throw createInvalidVideoParameter("audio_url", "an HTTPS URL", model);

  const body: DashScopeVideoRequestBody = { model: upstreamModel, input: { ...input, prompt }, parameters: {} };
  if (variant === "2.5-i2v") {
    const image = nonEmptyString(input?.img_url) ?? nonEmptyString(request.image);
    if (image === undefined)
      throw createInvalidVideoRequest(
        "metadata.input.img_url",
        `metadata.input.img_url (or image) is required for ${model}.`,
      );
    body.input.img_url = image;
  } else if (input?.img_url !== undefined || request.image !== undefined) {
    throw createInvalidVideoParameter(
      input?.img_url !== undefined ? "metadata.input.img_url" : "image",
      "absent (text-to-video only)",
      model,
    );
  }
  if (request.audio_url !== undefined && body.input.audio_url === undefined) body.input.audio_url = request.audio_url;

  const promptExtend = parameters?.prompt_extend ?? request.smart_rewrite ?? parameters !== undefined;
  body.parameters = {
    ...parameters,
    resolution,
    duration: duration.value,
    prompt_extend: promptExtend,
    watermark: parameters?.watermark ?? false,
  };
  if (ratio !== undefined) body.parameters.ratio = ratio;
  if (seed.value !== undefined) body.parameters.seed = seed.value;
  if (request.size !== undefined) body.parameters.size = request.size;
  if (request.generate_audio !== undefined && body.parameters.audio === undefined)
    body.parameters.audio = request.generate_audio;
  return { body, billing: { seconds: duration.value as number, samples: 1 } };
}

function convertVideoEdit(
  request: VideoGenerationRequest,
  input: Fields | undefined,
  parameters: Fields | undefined,
  prompt: string,
  upstreamModel: string,
): DashScopeVideoSubmission {
  const model = request.model;
  const media = Array.isArray(input?.media) ? [...(input.media as Fields[])] : [];
  if (input?.media !== undefined && !Array.isArray(input.media))
    throw createInvalidVideoRequest("metadata.input.media", `metadata.input.media must be an array for ${model}.`);
  // The older video_url stands for the source video when media names none.
  if (nonEmptyString(request.video_url) !== undefined && !media.some((item) => item?.type === "video"))
    media.unshift({ type: "video", url: request.video_url });
  media.forEach((item, index) => {
    const url = nonEmptyString(item?.url);
    if (url === undefined || !/^https?:\/\//i.test(url))
      throw createInvalidVideoRequest(
        `metadata.input.media[${index}].url`,
        `metadata.input.media[${index}].url must be a publicly reachable http(s) URL for ${model}.`,
      );
  });
  if (!media.some((item) => item.type === "video"))
    throw createInvalidVideoRequest(
      "metadata.input.media",
      `metadata.input.media must contain at least one item of type video for ${model}.`,
    );
  const referenceImages = media.filter((item) => item.type === "reference_image").length;
  if (referenceImages > maximumEditReferenceImages)
    throw new InvalidRequestError(
      `metadata.input.media holds ${referenceImages} reference images; ${model} takes at most ${maximumEditReferenceImages} (items of type reference_image) beside the video.`,
      { code: "invalid_parameter", param: "metadata.input.media" },
    );
  const resolution = readResolution(request, parameters, ["720P", "1080P"]);
  const duration = pick(parameters, "duration", request.duration, undefined);
  if (duration.value !== undefined && duration.value !== 0 && !isIntegerIn(duration.value, 2, longestEditOutputSeconds))
    throw createInvalidVideoParameter(
      duration.field,
      `0 (the source's length) or an integer from 2 to ${longestEditOutputSeconds}`,
      model,
    );

  const body: DashScopeVideoRequestBody = {
    model: upstreamModel,
    input: { ...input, prompt, media },
    parameters: { ...parameters },
  };
  if (resolution !== undefined) body.parameters.resolution = resolution;
  if (duration.value !== undefined) body.parameters.duration = duration.value;
  const outputSeconds =
    duration.value === undefined || duration.value === 0 ? longestEditOutputSeconds : (duration.value as number);
  return { body, billing: { seconds: longestEditSourceSeconds + outputSeconds, samples: 1 } };
}

function convertWan27(
  request: VideoGenerationRequest,
  input: Fields | undefined,
  parameters: Fields | undefined,
  prompt: string | undefined,
  upstreamModel: string,
): DashScopeVideoSubmission {
  const body: DashScopeVideoRequestBody = { model: upstreamModel, input: { ...input }, parameters: { ...parameters } };
  if (prompt !== undefined) body.input.prompt = prompt;
  const image = nonEmptyString(request.image);
  if (image !== undefined && input?.media === undefined && input?.img_url === undefined)
    body.input.media = [{ type: "first_frame", url: image }];
  if (request.resolution !== undefined && body.parameters.resolution === undefined)
    body.parameters.resolution = request.resolution.toUpperCase();
  if (request.aspect_ratio !== undefined && body.parameters.ratio === undefined)
    body.parameters.ratio = request.aspect_ratio;
  if (request.duration !== undefined && body.parameters.duration === undefined)
    body.parameters.duration = request.duration;
  if (request.seed !== undefined && body.parameters.seed === undefined) body.parameters.seed = request.seed;
  const duration = body.parameters.duration ?? 5;
  if (!isIntegerIn(duration, 1, 60))
    throw createInvalidVideoParameter(
      parameters?.duration !== undefined ? "metadata.parameters.duration" : "duration",
      "a whole number of seconds",
      request.model,
    );
  return { body, billing: { seconds: duration as number, samples: 1 } };
}

/** The resolution tier: `metadata.parameters.resolution` wins over the generic lower-case one. */
function readResolution(
  request: VideoGenerationRequest,
  parameters: Fields | undefined,
  allowed: string[],
): string | undefined {
  const inner = parameters?.resolution;
  if (inner !== undefined) {
    if (typeof inner !== "string" || !allowed.includes(inner))
      throw createInvalidVideoParameter(
        "metadata.parameters.resolution",
        `one of ${allowed.join(", ")}`,
        request.model,
      );
    return inner;
  }
  if (request.resolution === undefined) return undefined;
  const tier = request.resolution.toUpperCase();
  if (!allowed.includes(tier))
    throw createInvalidVideoParameter(
      "resolution",
      `one of ${allowed.map((value) => value.toLowerCase()).join(", ")}`,
      request.model,
    );
  return tier;
}

function readRatio(request: VideoGenerationRequest, parameters: Fields | undefined): string | undefined {
  const field = parameters?.ratio !== undefined ? "metadata.parameters.ratio" : "aspect_ratio";
  const ratio = parameters?.ratio ?? request.aspect_ratio;
  if (ratio !== undefined && (typeof ratio !== "string" || !ratios.includes(ratio)))
    throw createInvalidVideoParameter(field, `one of ${ratios.join(", ")}`, request.model);
  return ratio as string | undefined;
}

/** `metadata.parameters.<key>` when given, else the top-level value, else the default; with the field it came from. */
function pick(
  parameters: Fields | undefined,
  key: string,
  topLevel: unknown,
  fallback: unknown,
): { value: unknown; field: string } {
  if (parameters?.[key] !== undefined) return { value: parameters[key], field: `metadata.parameters.${key}` };
  return { value: topLevel ?? fallback, field: key };
}

function readObject(value: unknown, field: string, model: string): Fields | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw createInvalidVideoRequest(field, `${field} must be an object for ${model}.`);
  return value as Fields;
}

function isIntegerIn(value: unknown, minimum: number, maximum: number): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= minimum && value <= maximum;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}
