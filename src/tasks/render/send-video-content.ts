import { pipeline } from "node:stream/promises";
import type { Response } from "express";
import type { VideoContent } from "../../providers/contract/video-task-capability.js";

/**
 * Streams a finished video to the client: 200 with the upstream's content type and, when known, its length. Shared
 * by `/v1/videos/{id}/content` and the console's `/api/task/self/{id}/content`. Neither is billed.
 */
export async function sendVideoContent(response: Response, content: VideoContent): Promise<void> {
  response.status(200).setHeader("Content-Type", content.contentType);
  if (content.contentLength !== undefined) response.setHeader("Content-Length", content.contentLength);
  try {
    await pipeline(content.body, response);
  } catch (error) {
    // Headers are out: the socket is closed by pipeline; nothing else can be answered.
    if (!response.headersSent) throw error;
  }
}
