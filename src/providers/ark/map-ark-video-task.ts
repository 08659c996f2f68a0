import type { UpstreamTaskStatus, VideoTaskSnapshot } from "../contract/video-task-capability.js";
import type { ArkTaskAnswer } from "./ark-video-task-types.js";

/**
 * An ark task answer → the task's snapshot. A `succeeded` task without a video is failed (and so refunded): the
 * video API's clients look for a URL before anything else. Billing: the seconds the provider made and, when it reports
 * them, the completion tokens (for models priced per 1M output tokens).
 */
export function mapArkVideoTask(answer: ArkTaskAnswer): VideoTaskSnapshot {
  const status = typeof answer.status === "string" ? answer.status : "unknown";
  const snapshot: VideoTaskSnapshot = mapArkStatus(status);
  if (typeof answer.updated_at === "number" && snapshot.status !== "in_progress" && snapshot.status !== "queued")
    snapshot.completedAt = answer.updated_at;
  if (snapshot.status === "failed") {
    snapshot.error = describeFailure(status, answer.error);
    return snapshot;
  }
  if (snapshot.status !== "completed") return snapshot;
  const videoUrl = answer.content?.video_url;
  if (typeof videoUrl !== "string" || videoUrl === "")
    return {
      ...snapshot,
      status: "failed",
      upstreamStatus: "FAILED",
      error: { code: "empty_response", message: "The provider finished the task without a video." },
    };
  snapshot.progress = 100;
  snapshot.resultUrl = videoUrl;
  const seconds =
    typeof answer.duration === "number" && answer.duration > 0
      ? answer.duration
      : typeof answer.frames === "number" && answer.frames > 0
        ? (answer.frames - 1) / (answer.framespersecond ?? 24)
        : undefined;
  if (seconds !== undefined) {
    snapshot.seconds = seconds;
    snapshot.output = { outputVideoDuration: seconds };
  }
  if (typeof answer.usage?.completion_tokens === "number") snapshot.completionTokens = answer.usage.completion_tokens;
  const resolution = /^(\d+)p$/.exec(answer.resolution ?? "");
  snapshot.usage = { videoCount: 1, ...(resolution ? { resolution: Number(resolution[1]) } : {}) };
  return snapshot;
}

function mapArkStatus(status: string): { status: VideoTaskSnapshot["status"]; upstreamStatus: UpstreamTaskStatus } {
  switch (status) {
    case "queued":
      return { status: "queued", upstreamStatus: "PENDING" };
    case "running":
      return { status: "in_progress", upstreamStatus: "RUNNING" };
    case "succeeded":
      return { status: "completed", upstreamStatus: "SUCCEEDED" };
    case "failed":
    case "expired":
      return { status: "failed", upstreamStatus: "FAILED" };
    case "cancelled":
      return { status: "failed", upstreamStatus: "CANCELED" };
    default:
      // A status this gateway does not know yet: keep polling; the task core's timeout ends it if it never moves.
      return { status: "in_progress", upstreamStatus: "RUNNING" };
  }
}

function describeFailure(status: string, error: ArkTaskAnswer["error"]): { code: string; message: string } {
  if (error && (error.code || error.message))
    return { code: error.code ?? status, message: error.message ?? `The task ended as ${status}.` };
  if (status === "expired") return { code: "expired", message: "The task expired before the provider finished it." };
  if (status === "cancelled") return { code: "cancelled", message: "The task was cancelled at the provider." };
  return { code: status, message: `The task ended as ${status}.` };
}
