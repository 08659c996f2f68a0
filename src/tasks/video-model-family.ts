import type { FetchMedia } from "../net/create-safe-fetcher.js";
import type { VideoSubmission } from "../providers/contract/video-task-capability.js";

/** A file part of a multipart submission as the validator's uploader left it. */
export interface UploadedVideoFile {
  fieldname: string;
  buffer: Buffer;
  originalname: string;
  mimetype: string;
}

/** The client's submission before the family's rules: the validated body and any uploaded files. */
export interface VideoRequestInput {
  body: Record<string, unknown>;
  files: readonly UploadedVideoFile[];
}

/**
 * The rules of one model family (vid-a-, vid-b-, …), enforced before any upstream call: which models it has,
 * which fields and values it takes (400 InvalidRequestError with `param` otherwise), and how a request becomes a
 * protocol-neutral VideoSubmission. Image URLs are downloaded with `fetchImage` (SSRF-safe), base64 decoded here.
 */
export interface VideoModelFamily {
  matches(model: string): boolean;
  /** Whether GET /v1/video/generations/download, /v1/videos/{id}/content and remix serve this family. */
  servesContent: boolean;
  /** Id of a finished task of the same user to remix, when the request asks for one (already checked to start with video_). */
  readRemixSource?(input: VideoRequestInput): string | undefined;
  prepare(input: VideoRequestInput, tools: { fetchImage: FetchMedia }): Promise<VideoSubmission>;
}
