import type { VideoTaskObservation, VideoTaskState } from "../../video/video-task-observation.js";
import type { ArkTaskAnswer } from "./ark-video-task-types.js";

/**
 * An ark task answer (poll or the provider's callback) → the gateway's view of the task. A `succeeded` task without
 * a video is failed (and so refunded): the seed's clients look for a URL before anything else. Billing fields: the
 * seconds the provider made and, when it reports them, the completion tokens (models priced per 1M output tokens).
 */
export function mapArkVideoTask(answer: ArkTaskAnswer): VideoTaskObservation {
  const upstreamStatus = typeof answer.status === "string" ? answer.status : "unknown";
  const videoUrl = nonEmpty(answer.content?.video_url);
  const lastFrameUrl = nonEmpty(answer.content?.last_frame_url);
  const output: Record<string, unknown> = { task_id: answer.id, task_status: upstreamStatus };
  if (videoUrl !== undefined) output.video_url = videoUrl;
  if (lastFrameUrl !== undefined) output.last_frame_url = lastFrameUrl;
  for (const key of ["resolution", "ratio", "duration", "frames", "framespersecond", "seed", "generate_audio"] as const)
    if (answer[key] !== undefined) output[key] = answer[key];
  const observation: VideoTaskObservation = { state: mapArkStatus(upstreamStatus), upstreamStatus, output };
  if (answer.usage !== undefined) observation.usage = { ...answer.usage };

  if (observation.state === "failed") {
    observation.error = describeFailure(upstreamStatus, answer.error);
    return observation;
  }
  if (observation.state !== "completed") return observation;
  if (videoUrl === undefined) {
    return {
      ...observation,
      state: "failed",
      error: { code: "empty_response", message: "The provider finished the task without a video." },
    };
  }
  observation.progress = 100;
  observation.resultUrl = videoUrl;
  observation.samples = 1;
  const seconds =
    typeof answer.duration === "number" && answer.duration > 0
      ? answer.duration
      : typeof answer.frames === "number" && answer.frames > 0
        ? (answer.frames - 1) / (answer.framespersecond ?? 24)
        : undefined;
  if (seconds !== undefined) observation.billedSeconds = seconds;
  if (typeof answer.usage?.completion_tokens === "number")
    observation.completionTokens = answer.usage.completion_tokens;
  return observation;
}

function mapArkStatus(status: string): VideoTaskState {
  switch (status) {
    case "queued":
      return "queued";
    case "running":
      return "in_progress";
    case "succeeded":
      return "completed";
    case "failed":
    case "cancelled":
    case "expired":
      return "failed";
    default:
      // A status this gateway does not know yet: keep polling; the task core's expiry ends it if it never moves.
      return "in_progress";
  }
}

function describeFailure(status: string, error: ArkTaskAnswer["error"]): { code: string; message: string } {
  if (error && (error.code || error.message))
    return { code: error.code ?? status, message: error.message ?? `The task ended as ${status}.` };
  if (status === "expired") return { code: "expired", message: "The task expired before the provider finished it." };
  if (status === "cancelled") return { code: "cancelled", message: "The task was cancelled at the provider." };
  return { code: status, message: `The task ended as ${status}.` };
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
