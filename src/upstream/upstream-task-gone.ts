import { UpstreamFailure } from "./upstream-failure.js";
import type { VideoTaskSnapshot } from "../providers/contract/video-task-capability.js";

/** The upstream answered 404 or 410 for a task: it no longer knows it (VideoTaskCapability.poll's contract). */
export function isUpstreamTaskGone(error: unknown): boolean {
  return error instanceof UpstreamFailure && (error.upstreamStatusCode === 404 || error.upstreamStatusCode === 410);
}

/** The terminal snapshot `poll` returns for a task the upstream no longer knows, instead of throwing. */
export function createUpstreamTaskGoneSnapshot(
  message = "The upstream no longer knows this video task.",
): VideoTaskSnapshot {
  return { status: "failed", upstreamStatus: "UNKNOWN", error: { code: "upstream_task_not_found", message } };
}
