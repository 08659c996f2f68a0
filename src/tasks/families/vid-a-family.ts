import { InvalidRequestError } from "../../errors/gateway-error.js";
import { readReferenceImage } from "../read-reference-image.js";
import type { VideoModelFamily } from "../video-model-family.js";
import type { VideoReferenceImage } from "../../providers/contract/video-task-capability.js";
import { readCallbackKeep } from "./read-callback-keep.js";

const allowedSeconds = [4, 8, 12];
const allowedSizes = ["720x1280", "1280x720"];

/**
 * `vid-a-2` (as documented: text, image and video remix, on the OpenAI video protocol): `seconds` 4, 8 or 12 as string
 * or integer (default 4), `size` 720x1280 (default) or 1280x720, `input_reference` as URL, base64 or a file part,
 * `remix_from_video_id` starting with `video_`; `metadata.callback_url` as in every family.
 */
export const vidAFamily: VideoModelFamily = {
  matches: (model) => model === "vid-a-2" || model.startsWith("vid-a-"),
  servesContent: true,
  readRemixSource(input) {
    const source = input.body.remix_from_video_id;
    if (source === undefined || source === null || source === "") return undefined;
    if (typeof source !== "string" || !source.startsWith("video_"))
      throw new InvalidRequestError("remix_from_video_id must be a video id starting with video_.", {
        param: "remix_from_video_id",
      });
    return source;
  },
  async prepare(input, tools) {
    const { body } = input;
    const model = String(body.model);
    const prompt = body.prompt;
    if (typeof prompt !== "string" || prompt.trim() === "")
      throw new InvalidRequestError("prompt is required and must not be empty.", { param: "prompt" });
    const seconds = Number(body.seconds ?? 4);
    if (!allowedSeconds.includes(seconds))
      throw new InvalidRequestError(`seconds must be one of 4, 8, 12 for ${model}.`, {
        code: "invalid_parameter",
        param: "seconds",
      });
    const size = String(body.size ?? "720x1280");
    if (!allowedSizes.includes(size))
      throw new InvalidRequestError(`size must be 720x1280 or 1280x720 for ${model}.`, {
        code: "invalid_parameter",
        param: "size",
      });
    // Checked before any download, so a bad address costs nothing.
    const keep = readCallbackKeep(body);
    const images: VideoReferenceImage[] = [];
    const file = input.files.find((part) => part.fieldname === "input_reference");
    if (file) {
      images.push({ role: "first_frame", mimeType: file.mimetype, data: file.buffer, filename: file.originalname });
    } else if (typeof body.input_reference === "string" && body.input_reference !== "") {
      images.push(
        await readReferenceImage(body.input_reference, {
          param: "input_reference",
          role: "first_frame",
          fetchImage: tools.fetchImage,
        }),
      );
    }
    return { model, prompt, seconds, size, images, body, keep };
  },
};
