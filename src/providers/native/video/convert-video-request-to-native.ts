import { createInvalidVideoParameter } from "../../../video/create-invalid-video-parameter.js";
import { createInvalidVideoRequest } from "../../../video/create-invalid-video-request.js";
import type { VideoBillingBasis } from "../../../video/video-billing-basis.js";
import type { VideoGenerationRequest } from "../../../video/video-generation-request.js";
import { describeNativeVideoModel } from "./describe-native-video-model.js";
import type { NativeVideoImage, NativeVideoRequestBody } from "./native-video-operation-types.js";

export interface NativeVideoSubmission {
  body: NativeVideoRequestBody;
  billing: VideoBillingBasis;
}

export interface VideoToNativeOptions {
  /** The client's body as sent (the validator's defaults are not the family's). */
  request: VideoGenerationRequest;
  /**
   * The frames, already read (URLs downloaded by the SSRF-safe fetcher, base64 decoded). Without them the rules are
   * still checked and the body lacks the images: the family checks before it downloads anything.
   */
  frames?: { image?: NativeVideoImage; lastFrame?: NativeVideoImage };
}

const durations = [4, 6, 8];
const aspectRatios = ["16:9", "9:16"];
const resolutions = ["720p", "1080p"];
const personGenerations = ["allow_all", "allow_adult", "dont_allow"];

/**
 * A vid-b submit body → a predictLongRunning body, after the family's rules. The family's own fields win; the generic
 * `duration` and `aspect_ratio` stand in for `durationSeconds` and `aspectRatio` when those are absent. Defaults are
 * the documented ones: 4 s, 16:9, 1080p, one sample, no audio, people allowed, no watermark. The fast models always
 * make audio, so they are asked for it whatever the request says; `lastFrame` is for 3.1 only. People default to
 * `allow_adult` when a frame is given, because the provider refuses `allow_all` for image input.
 */
export function convertVideoRequestToNative(options: VideoToNativeOptions): NativeVideoSubmission {
  const { request } = options;
  const model = describeNativeVideoModel(request.model);
  if (model === undefined)
    throw createInvalidVideoRequest("model", `${request.model} is not a vid-b- model served by native channels.`);
  if (typeof request.prompt !== "string" || request.prompt.trim() === "")
    throw createInvalidVideoRequest("prompt", `prompt is required for ${request.model}.`);

  const durationField = request.durationSeconds !== undefined ? "durationSeconds" : "duration";
  const durationSeconds = request.durationSeconds ?? request.duration ?? 4;
  if (!durations.includes(durationSeconds))
    throw createInvalidVideoParameter(durationField, `one of ${durations.join(", ")}`, request.model);
  const ratioField = request.aspectRatio !== undefined ? "aspectRatio" : "aspect_ratio";
  const aspectRatio = request.aspectRatio ?? request.aspect_ratio ?? "16:9";
  if (!aspectRatios.includes(aspectRatio))
    throw createInvalidVideoParameter(ratioField, `one of ${aspectRatios.join(", ")}`, request.model);
  const resolution = request.resolution ?? "1080p";
  if (!resolutions.includes(resolution))
    throw createInvalidVideoParameter("resolution", `one of ${resolutions.join(", ")}`, request.model);
  const sampleCount = request.sampleCount ?? 1;
  if (!Number.isInteger(sampleCount) || sampleCount < 1 || sampleCount > 4)
    throw createInvalidVideoParameter("sampleCount", "an integer from 1 to 4", request.model);
  if (request.personGeneration !== undefined && !personGenerations.includes(request.personGeneration))
    throw createInvalidVideoParameter("personGeneration", `one of ${personGenerations.join(", ")}`, request.model);
  if (request.fps !== undefined && (!Number.isInteger(request.fps) || request.fps < 1))
    throw createInvalidVideoParameter("fps", "a positive integer", request.model);
  if (request.seed !== undefined && !Number.isInteger(request.seed))
    throw createInvalidVideoParameter("seed", "an integer", request.model);
  const hasImage = typeof request.image === "string" && request.image !== "";
  const hasLastFrame = typeof request.lastFrame === "string" && request.lastFrame !== "";
  if (hasLastFrame && !model.takesLastFrame)
    throw createInvalidVideoParameter(
      "lastFrame",
      "absent (only vid-b-3.1-fast-generate-preview takes a last frame)",
      request.model,
    );
  if (hasLastFrame && !hasImage)
    throw createInvalidVideoRequest("image", `lastFrame needs image (the first frame) for ${request.model}.`);

  const { image, lastFrame } = options.frames ?? {};
  const instance: NativeVideoRequestBody["instances"][number] = { prompt: request.prompt };
  if (image !== undefined) instance.image = image;
  if (lastFrame !== undefined) instance.lastFrame = lastFrame;
  const parameters: NativeVideoRequestBody["parameters"] = {
    aspectRatio,
    durationSeconds,
    resolution,
    personGeneration: request.personGeneration ?? (hasImage ? "allow_adult" : "allow_all"),
    sampleCount,
    generateAudio: model.alwaysWithAudio || request.generateAudio === true,
  };
  if (request.fps !== undefined) parameters.fps = request.fps;
  if (request.addWatermark !== undefined) parameters.addWatermark = request.addWatermark;
  if (request.seed !== undefined) parameters.seed = request.seed;
  return { body: { instances: [instance], parameters }, billing: { seconds: durationSeconds, samples: sampleCount } };
}
