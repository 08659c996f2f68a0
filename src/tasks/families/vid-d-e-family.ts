import { convertVideoRequestToArk } from "../../providers/ark/convert-video-request-to-ark.js";
import { parseArkTextFlags } from "../../providers/ark/parse-ark-text-flags.js";
import type { VideoGenerationRequest } from "../../video/video-generation-request.js";
import type { VideoModelFamily } from "../video-model-family.js";
import { readCallbackKeep } from "./read-callback-keep.js";

/**
 * `vid-d-` and `vid-e-` (ARK content-generation tasks): the ARK translator checks every rule (vid-e's text flags
 * included) before any upstream call. The reservation holds the requested seconds at `per_second` and, for models
 * priced per 1M output tokens, the provider's token count for that many frames.
 */
export const vidDEFamily: VideoModelFamily = {
  matches: (model) => model.startsWith("vid-d-") || model.startsWith("vid-e-"),
  servesContent: false,
  async prepare(input) {
    const request = input.body as VideoGenerationRequest;
    const { body, billing } = convertVideoRequestToArk(request, request.model);
    const text = body.content.find((item) => item.type === "text") as { text?: unknown } | undefined;
    const prompt = typeof text?.text === "string" ? parseArkTextFlags(text.text, "metadata.content").prompt : "";
    return {
      model: request.model,
      prompt,
      seconds: billing.seconds * billing.samples,
      images: [],
      body: input.body,
      keep: readCallbackKeep(input.body),
      ...(billing.estimatedCompletionTokens === undefined
        ? {}
        : { estimatedCompletionTokens: billing.estimatedCompletionTokens }),
    };
  },
};
