import { createInvalidVideoParameter } from "../../video/create-invalid-video-parameter.js";
import { createInvalidVideoRequest } from "../../video/create-invalid-video-request.js";
import type { VideoBillingBasis } from "../../video/video-billing-basis.js";
import type { VideoGenerationRequest } from "../../video/video-generation-request.js";
import type { ArkContentItem, ArkCreateTaskBody } from "./ark-video-task-types.js";
import { type ArkVideoModel, describeArkVideoModel } from "./describe-ark-video-model.js";
import { estimateArkVideoTokens } from "./estimate-ark-video-tokens.js";
import { type ArkFlagName, type ArkTextFlag, parseArkTextFlags } from "./parse-ark-text-flags.js";

export interface ArkVideoSubmission {
  body: ArkCreateTaskBody;
  billing: VideoBillingBasis;
}

const vidERatios = ["16:9", "9:16", "1:1", "4:3", "3:4", "adaptive"];
const vidDRatios = ["16:9", "4:3", "1:1", "3:4", "9:16", "21:9", "adaptive"];
const defaultFramesPerSecond = 24;
const defaultSeconds = 5;
const maximumSeed = 2 ** 32 - 1;
const maximumReferenceImages = 4;
/** Fields of our submit body with a meaning of their own; every other top-level field is forwarded to vid-d. */
const knownRequestFields = new Set([
  "model",
  "prompt",
  "image",
  "duration",
  "resolution",
  "aspect_ratio",
  "seconds",
  "size",
  "input_reference",
  "remix_from_video_id",
  "durationSeconds",
  "aspectRatio",
  "fps",
  "lastFrame",
  "generateAudio",
  "personGeneration",
  "addWatermark",
  "seed",
  "sampleCount",
  "smart_rewrite",
  "generate_audio",
  "audio_url",
  "video_url",
  "metadata",
]);
/** What vid-e reads from the text flags only; as metadata keys they would change the cost the flags were checked for. */
const vidEFlagOnlyKeys = ["resolution", "ratio", "duration", "frames", "framespersecond", "generate_audio"];
/** Metadata keys the gateway consumes itself: the client's callback address never goes upstream. */
const consumedMetadataKeys = new Set(["content", "callback_url", "return_last_frame", "input", "parameters"]);

/**
 * A vid-d or vid-e submit body → the ark task body, after every rule of the family (400 naming the field and the
 * allowed values before any upstream call). vid-e reads `metadata.content` (its text carries the prompt and the
 * inline flags, which the gateway parses to check and to reserve; the content goes upstream as written). The generic
 * `image`, `resolution`, `aspect_ratio` and `duration` apply where the text has no flag of their own, and go upstream
 * as the provider's strict top-level fields. vid-d passes content, `asset://` references and unknown keys through.
 */
export function convertVideoRequestToArk(request: VideoGenerationRequest, upstreamModel: string): ArkVideoSubmission {
  const model = describeArkVideoModel(request.model);
  if (model === undefined)
    throw createInvalidVideoRequest(
      "model",
      `${request.model} is not a vid-d- or vid-e- model served by ark channels.`,
    );
  return model.family === "vid-e"
    ? convertVidERequest(request, model, upstreamModel)
    : convertVidDRequest(request, model, upstreamModel);
}

function convertVidERequest(
  request: VideoGenerationRequest,
  model: ArkVideoModel,
  upstreamModel: string,
): ArkVideoSubmission {
  const metadata = request.metadata ?? {};
  const content = readContent(metadata.content, request.model, true);
  const textIndex = content.findIndex((item) => item.type === "text");
  if (textIndex === -1)
    throw createInvalidVideoRequest(
      "metadata.content",
      `metadata.content must contain one {type: text, text} item with the prompt for ${request.model}.`,
    );
  if (content.filter((item) => item.type === "text").length > 1)
    throw createInvalidVideoRequest(
      "metadata.content",
      `metadata.content must contain exactly one text item for ${request.model}.`,
    );
  const textField = `metadata.content[${textIndex}].text`;
  const parsed = parseArkTextFlags((content[textIndex] as { text: string }).text, textField);
  const flags = parsed.flags;
  if (parsed.prompt === "") throw createInvalidVideoRequest(textField, `${textField} must carry a prompt.`);

  if (!content.some((item) => item.type === "image_url") && typeof request.image === "string" && request.image !== "")
    content.push({ type: "image_url", image_url: { url: request.image }, role: "first_frame" });
  checkVidEImages(content, model, request.model);

  const body: ArkCreateTaskBody = { model: upstreamModel, content };
  const resolution = readResolution(flags.get("resolution"), request.resolution, model, request.model, body);
  const ratio = flags.get("ratio")?.value ?? request.aspect_ratio;
  const ratioField = flags.has("ratio") ? (flags.get("ratio") as ArkTextFlag).spelled : "aspect_ratio";
  if (ratio !== undefined) {
    const allowed = model.variant === "lite-t2v" ? vidERatios.filter((value) => value !== "adaptive") : vidERatios;
    if (!allowed.includes(ratio))
      throw createInvalidVideoParameter(ratioField, `one of ${allowed.join(", ")}`, request.model);
    if (!flags.has("ratio")) body.ratio = ratio;
  }

  let seconds = readSeconds(flags.get("duration"), request.duration, model, request.model, body);
  const framesPerSecond = readIntegerFlag(flags.get("framespersecond"), 1, 60, request.model) ?? defaultFramesPerSecond;
  const framesFlag = flags.get("frames");
  let frames = framesPerSecond * seconds + 1;
  if (framesFlag !== undefined) {
    if (model.variant !== "pro-1.5")
      throw createInvalidVideoParameter(
        framesFlag.spelled,
        "absent (only vid-e-1-5-pro models take it)",
        request.model,
      );
    const value = readIntegerFlag(framesFlag, 29, 289, request.model) as number;
    if ((value - 25) % 4 !== 0)
      throw createInvalidVideoParameter(
        framesFlag.spelled,
        "an integer from 29 to 289 of the form 25+4n",
        request.model,
      );
    // --frames wins over the duration: the video lasts as many frames as asked.
    frames = value;
    seconds = (value - 1) / framesPerSecond;
  }
  readIntegerFlag(flags.get("seed"), -1, maximumSeed, request.model);
  readBooleanFlag(flags.get("watermark"), request.model);
  const cameraFixed = flags.get("camerafixed");
  if (cameraFixed !== undefined) {
    if (model.variant !== "lite-t2v" && model.variant !== "lite-i2v")
      throw createInvalidVideoParameter(cameraFixed.spelled, "absent (only the lite models take it)", request.model);
    readBooleanFlag(cameraFixed, request.model);
  }

  if (metadata.return_last_frame !== undefined) {
    if (model.variant !== "pro-1.5")
      throw createInvalidVideoParameter(
        "metadata.return_last_frame",
        "absent (only vid-e-1-5-pro models return the last frame)",
        request.model,
      );
    body.return_last_frame = metadata.return_last_frame;
  }
  for (const key of vidEFlagOnlyKeys)
    if (metadata[key] !== undefined)
      throw createInvalidVideoRequest(
        `metadata.${key}`,
        `metadata.${key} is not used by ${request.model}: give it as a flag in the text of metadata.content.`,
      );
  forwardUnknownMetadata(metadata, body);
  // The noAudio variant is the same upstream model asked for silence; the 1.5 pro model otherwise speaks.
  if (model.variant === "pro-1.5") body.generate_audio = !model.silent;
  return { body, billing: billingFor(resolution, seconds, frames) };
}

function convertVidDRequest(
  request: VideoGenerationRequest,
  model: ArkVideoModel,
  upstreamModel: string,
): ArkVideoSubmission {
  const metadata = request.metadata ?? {};
  let content: ArkContentItem[];
  if (metadata.content !== undefined) {
    content = readContent(metadata.content, request.model, false);
  } else {
    if (typeof request.prompt !== "string" || request.prompt.trim() === "")
      throw createInvalidVideoRequest("prompt", `prompt (or metadata.content) is required for ${request.model}.`);
    content = [{ type: "text", text: request.prompt }];
    if (typeof request.image === "string" && request.image !== "")
      content.push({ type: "image_url", image_url: { url: request.image }, role: "first_frame" });
  }
  const textItem = content.find((item) => item.type === "text") as { text?: unknown } | undefined;
  const flags =
    typeof textItem?.text === "string"
      ? parseArkTextFlags(textItem.text, `metadata.content[${content.indexOf(textItem as ArkContentItem)}].text`).flags
      : new Map<ArkFlagName, ArkTextFlag>();

  if (metadata.frames !== undefined)
    throw createInvalidVideoParameter(
      "metadata.frames",
      "absent (only vid-e-1-5-pro models take frames)",
      request.model,
    );
  const body: ArkCreateTaskBody = { model: upstreamModel, content };
  for (const [field, value] of Object.entries(request))
    if (!knownRequestFields.has(field) && value !== undefined) body[field] = value;
  forwardUnknownMetadata(metadata, body);

  const metadataResolution = readMetadataString(metadata, "resolution");
  const resolution =
    metadataResolution !== undefined
      ? checkResolution(metadataResolution, "metadata.resolution", model, request.model)
      : readResolution(flags.get("resolution"), request.resolution, model, request.model, body);
  const ratio = readMetadataString(metadata, "ratio") ?? flags.get("ratio")?.value ?? request.aspect_ratio;
  if (ratio !== undefined && !vidDRatios.includes(ratio))
    throw createInvalidVideoParameter(
      metadata.ratio !== undefined ? "metadata.ratio" : flags.has("ratio") ? "--ratio" : "aspect_ratio",
      `one of ${vidDRatios.join(", ")}`,
      request.model,
    );
  if (ratio !== undefined && metadata.ratio === undefined && !flags.has("ratio")) body.ratio = ratio;

  let seconds: number;
  if (metadata.duration !== undefined) {
    seconds = checkVidDSeconds(metadata.duration, "metadata.duration", model, request.model);
  } else {
    const flag = flags.get("duration");
    seconds =
      flag !== undefined
        ? checkVidDSeconds(Number(flag.value), flag.spelled, model, request.model)
        : checkVidDSeconds(request.duration ?? defaultSeconds, "duration", model, request.model);
    if (flag === undefined && request.duration !== undefined) body.duration = request.duration;
  }
  return { body, billing: billingFor(resolution, seconds, defaultFramesPerSecond * seconds + 1) };
}

function readContent(value: unknown, modelName: string, required: boolean): ArkContentItem[] {
  if (value === undefined && required)
    throw createInvalidVideoRequest("metadata.content", `metadata.content is required for ${modelName}.`);
  if (!Array.isArray(value) || value.length === 0)
    throw createInvalidVideoRequest("metadata.content", `metadata.content must be a non-empty array for ${modelName}.`);
  // A copy: the gateway may append the generic image, and the client's body is kept as sent.
  return value.map((item) => ({ ...(item as ArkContentItem) }));
}

function checkVidEImages(content: ArkContentItem[], model: ArkVideoModel, modelName: string): void {
  const images = content.filter((item) => item.type === "image_url") as Array<{ role?: string }>;
  const field = "metadata.content";
  if (model.variant === "lite-t2v") {
    if (images.length > 0)
      throw createInvalidVideoRequest(field, `${modelName} is text-to-video only: metadata.content takes no images.`);
    return;
  }
  if (model.variant === "lite-i2v" && images.length === 0)
    throw createInvalidVideoRequest(field, `${modelName} needs an image item in metadata.content.`);
  // One image without a role is the first frame, as upstream.
  const roles = images.map((image) => image.role ?? (images.length === 1 ? "first_frame" : undefined));
  const allowedRoles =
    model.variant === "lite-i2v" ? ["first_frame", "last_frame", "reference_image"] : ["first_frame", "last_frame"];
  for (const role of roles)
    if (role === undefined || !allowedRoles.includes(role))
      throw createInvalidVideoParameter(`${field}[].role`, `one of ${allowedRoles.join(", ")}`, modelName);
  const count = (role: string) => roles.filter((each) => each === role).length;
  const references = count("reference_image");
  if (references > 0) {
    if (references !== roles.length)
      throw createInvalidVideoRequest(
        field,
        `reference_image items cannot be combined with first_frame or last_frame items for ${modelName}.`,
      );
    if (references > maximumReferenceImages)
      throw createInvalidVideoParameter(
        `${field}[].role`,
        `reference_image at most ${maximumReferenceImages} times`,
        modelName,
      );
    return;
  }
  if (count("first_frame") > 1 || count("last_frame") > 1)
    throw createInvalidVideoRequest(field, `metadata.content takes at most one first_frame and one last_frame image.`);
  if (count("last_frame") === 1 && count("first_frame") === 0)
    throw createInvalidVideoRequest(field, `a last_frame image needs a first_frame image for ${modelName}.`);
}

function readResolution(
  flag: ArkTextFlag | undefined,
  generic: string | undefined,
  model: ArkVideoModel,
  modelName: string,
  body: ArkCreateTaskBody,
): string {
  if (flag !== undefined) return checkResolution(flag.value, flag.spelled, model, modelName);
  if (generic === undefined) return model.defaultResolution;
  body.resolution = checkResolution(generic, "resolution", model, modelName);
  return generic;
}

function checkResolution(value: string, field: string, model: ArkVideoModel, modelName: string): string {
  if (!model.resolutions.includes(value))
    throw createInvalidVideoParameter(field, `one of ${model.resolutions.join(", ")}`, modelName);
  return value;
}

function readSeconds(
  flag: ArkTextFlag | undefined,
  generic: number | undefined,
  model: ArkVideoModel,
  modelName: string,
  body: ArkCreateTaskBody,
): number {
  const allowed = `an integer from ${model.minimumSeconds} to ${model.maximumSeconds}`;
  if (flag !== undefined) return readIntegerFlag(flag, model.minimumSeconds, model.maximumSeconds, modelName) as number;
  if (generic === undefined) return defaultSeconds;
  if (!Number.isInteger(generic) || generic < model.minimumSeconds || generic > model.maximumSeconds)
    throw createInvalidVideoParameter("duration", allowed, modelName);
  body.duration = generic;
  return generic;
}

/** vid-d: whole seconds in range, or -1 (the upstream picks the length; reserved at the longest). */
function checkVidDSeconds(value: unknown, field: string, model: ArkVideoModel, modelName: string): number {
  if (value === -1) return model.maximumSeconds;
  if (
    typeof value !== "number" ||
    !Number.isInteger(value) ||
    value < model.minimumSeconds ||
    value > model.maximumSeconds
  )
    throw createInvalidVideoParameter(
      field,
      `an integer from ${model.minimumSeconds} to ${model.maximumSeconds}, or -1`,
      modelName,
    );
  return value;
}

function readIntegerFlag(
  flag: ArkTextFlag | undefined,
  minimum: number,
  maximum: number,
  modelName: string,
): number | undefined {
  if (flag === undefined) return undefined;
  const value = /^-?\d+$/.test(flag.value) ? Number(flag.value) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < minimum || value > maximum)
    throw createInvalidVideoParameter(flag.spelled, `an integer from ${minimum} to ${maximum}`, modelName);
  return value;
}

function readBooleanFlag(flag: ArkTextFlag | undefined, modelName: string): boolean | undefined {
  if (flag === undefined) return undefined;
  if (flag.value !== "true" && flag.value !== "false")
    throw createInvalidVideoParameter(flag.spelled, "true or false", modelName);
  return flag.value === "true";
}

function readMetadataString(metadata: Record<string, unknown>, key: string): string | undefined {
  const value = metadata[key];
  return typeof value === "string" ? value : undefined;
}

function forwardUnknownMetadata(metadata: Record<string, unknown>, body: ArkCreateTaskBody): void {
  for (const [key, value] of Object.entries(metadata))
    if (!consumedMetadataKeys.has(key) && value !== undefined) body[key] = value;
}

function billingFor(resolution: string, seconds: number, frames: number): VideoBillingBasis {
  return { seconds, samples: 1, estimatedCompletionTokens: estimateArkVideoTokens(resolution, frames) };
}
