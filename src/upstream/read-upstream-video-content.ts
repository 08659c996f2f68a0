import type { Readable } from "node:stream";
import type { UpstreamResponse } from "./send-upstream-request.js";
import type { VideoContent } from "../providers/contract/video-task-capability.js";

/** A video download's answer as the content path streams it: its type (MP4 when unsaid), length when said, body. */
export function readUpstreamVideoContent(response: UpstreamResponse): VideoContent {
  const contentType = response.headers["content-type"];
  const contentLength = Number(response.headers["content-length"]);
  return {
    contentType: typeof contentType === "string" && contentType !== "" ? contentType : "video/mp4",
    ...(Number.isInteger(contentLength) && contentLength >= 0 ? { contentLength } : {}),
    body: response.body as unknown as Readable,
  };
}
