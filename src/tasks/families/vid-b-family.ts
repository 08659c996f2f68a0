import { convertVideoRequestToNative } from "../../providers/native/video/convert-video-request-to-native.js";
import { nativeSecondsPerSampleKey } from "../../providers/native/video/native-seconds-per-sample-key.js";
import type { VideoGenerationRequest } from "../../video/video-generation-request.js";
import { readReferenceImage } from "../read-reference-image.js";
import type { VideoModelFamily } from "../video-model-family.js";
import type { VideoReferenceImage } from "../../providers/contract/video-task-capability.js";
import { readCallbackKeep } from "./read-callback-keep.js";

/**
 * `vid-b-` (the native long-running video models): every documented rule is checked by the native translator before
 * anything is downloaded; the frames are then read (URLs through the SSRF-safe fetcher). The reservation holds the
 * seconds of every sample asked for; the video is served from the gateway's content path, never the provider's URI.
 */
export const vidBFamily: VideoModelFamily = {
  matches: (model) => model.startsWith("vid-b-"),
  servesContent: true,
  async prepare(input, tools) {
    const request = input.body as VideoGenerationRequest;
    const { billing } = convertVideoRequestToNative({ request });
    const keep = { ...readCallbackKeep(input.body), [nativeSecondsPerSampleKey]: billing.seconds };
    const images: VideoReferenceImage[] = [];
    if (typeof request.image === "string" && request.image !== "")
      images.push(
        await readReferenceImage(request.image, { param: "image", role: "first_frame", fetchImage: tools.fetchImage }),
      );
    if (typeof request.lastFrame === "string" && request.lastFrame !== "")
      images.push(
        await readReferenceImage(request.lastFrame, {
          param: "lastFrame",
          role: "last_frame",
          fetchImage: tools.fetchImage,
        }),
      );
    return {
      model: request.model,
      prompt: request.prompt ?? "",
      seconds: billing.seconds * billing.samples,
      images,
      body: input.body,
      keep,
    };
  },
};
