import { FormData } from "undici";
import type { VideoSubmission } from "../../contract/video-task-capability.js";

/**
 * A submission → the multipart body of `POST /v1/videos` (what openai-node 6.28+ always sends; the API takes it
 * with or without a file). `seconds` goes as the string the API's enum names; the first-frame image as the
 * `input_reference` file part.
 */
export function convertVideoSubmissionToOpenai(submission: VideoSubmission, upstreamModel: string): FormData {
  const form = new FormData();
  form.append("model", upstreamModel);
  form.append("prompt", submission.prompt);
  form.append("seconds", String(submission.seconds));
  if (submission.size !== undefined) form.append("size", submission.size);
  const reference = submission.images.find((image) => image.role === "first_frame");
  if (reference)
    form.append("input_reference", new Blob([reference.data], { type: reference.mimeType }), reference.filename);
  return form;
}
