import { convertVideoRequestToDashScope } from "../../providers/dashscope/convert-video-request-to-dashscope.js";
import type { VideoGenerationRequest } from "../../video/video-generation-request.js";
import type { VideoModelFamily } from "../video-model-family.js";
import { readCallbackKeep } from "./read-callback-keep.js";

/**
 * `vid-c-` (DashScope video synthesis): every documented rule is checked by the DashScope translator before any
 * upstream call; `metadata.parameters` wins over the top level for the reservation too. Images and media are URLs the
 * provider fetches itself, so nothing is downloaded here.
 */
export const vidCFamily: VideoModelFamily = {
  matches: (model) => model.startsWith("vid-c"),
  servesContent: false,
  async prepare(input) {
    const request = input.body as VideoGenerationRequest;
    const { body, billing } = convertVideoRequestToDashScope(request, request.model);
    return {
      model: request.model,
      prompt: body.input.prompt ?? request.prompt ?? "",
      seconds: billing.seconds * billing.samples,
      images: [],
      body: input.body,
      keep: readCallbackKeep(input.body),
    };
  },
};
