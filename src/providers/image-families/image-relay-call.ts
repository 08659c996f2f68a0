import type { FetchMedia } from "../../net/create-safe-fetcher.js";
import type { ImageCall } from "./image-call.js";
import type { ImageFamilyRules } from "./image-family-rules.js";

/** A multipart file part as the validator's uploader left it. */
export interface UploadedImageFile {
  fieldname: string;
  buffer: Buffer;
  originalname: string;
  mimetype: string;
}

/**
 * One image request, checked by its family's rules, as every provider's image capability receives it: the client's
 * own fields (validator defaults removed, nested ones too), the uploaded files of a multipart edit, and the tools an
 * attempt may need. `cache` keeps per-request work (translations, downloads) across failovers.
 */
export interface ImageRelayCall extends ImageCall {
  /** The model the client asked for. */
  model: string;
  family: ImageFamilyRules;
  files: readonly UploadedImageFile[];
  /** The SSRF-safe downloader (reference images, result URLs for b64_json). */
  fetchImage: FetchMedia;
  /** Platform default safety settings for the native family. */
  nativeSafetySettings: ReadonlyArray<{ category: string; threshold: string }> | undefined;
  /** Unix seconds. */
  now(): number;
  cache: Map<string, Promise<unknown>>;
}
