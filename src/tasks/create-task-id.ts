import { randomBytes } from "node:crypto";

/** Our task id: `video_` and 128 random bits in hex, so ids cannot be guessed or enumerated. */
export function createTaskId(): string {
  return `video_${randomBytes(16).toString("hex")}`;
}
