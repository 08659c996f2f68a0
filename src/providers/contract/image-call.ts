import type { ImageFamilyRules } from "./image-family-rules.js";
import type { ImageRequestFields } from "./image-request-fields.js";

/** One uploaded file part of a multipart image edit, as the validator's uploader left it. */
export interface UploadedImageFile {
  fieldname: string;
  buffer: Buffer;
  originalname: string;
  mimetype: string;
}

/**
 * The `images` capability's call: /v1/images/generations or /v1/images/edits, already checked by its model family's
 * rules (resolveImageFamily). The client's own fields (JSON with the validator's defaults removed, nested ones too,
 * or a multipart edit's text fields) and the edit's file parts. Each adapter translates it to its provider's
 * protocol, or refuses a family its protocol does not speak (assertFamilyServed).
 */
export interface ImageCall extends ImageRequestFields {
  /** The model the client asked for. */
  model: string;
  family: ImageFamilyRules;
  files: readonly UploadedImageFile[];
}
