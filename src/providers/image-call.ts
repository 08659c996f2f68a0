import type { components } from "../../generated/types/openai.js";

type ImageRequest = components["schemas"]["ImageGenerationRequest"];

/** One uploaded file part of a multipart image edit, as the validator's uploader left it. */
export interface UploadedImageFile {
  fieldname: string;
  buffer: Buffer;
  originalname: string;
  mimetype: string;
}

/**
 * The `images` capability's call: /v1/images/generations or /v1/images/edits as the client sent it, JSON or a
 * multipart edit (the form's text fields as sent and its file parts: image, image[], mask). Each adapter
 * translates it to its provider's protocol.
 */
export type ImageCall =
  | { task: "generations" | "edits"; kind: "json"; request: ImageRequest }
  | { task: "edits"; kind: "multipart"; fields: Record<string, string>; files: readonly UploadedImageFile[] };
