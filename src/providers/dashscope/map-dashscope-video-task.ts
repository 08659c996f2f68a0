import type { VideoTaskObservation, VideoTaskState } from "../../video/video-task-observation.js";
import type { DashScopeTaskAnswer } from "./dashscope-video-task-types.js";

const outputFields = ["submit_time", "scheduled_time", "end_time", "orig_prompt", "video_url"] as const;
const usageFields = ["SR", "duration", "video_count"] as const;

/**
 * A DashScope task answer → the gateway's view of the task, with the provider fields the wrapped query answer shows
 * (`metadata.output`: times, original prompt, video, input and output seconds; `metadata.usage{SR, duration,
 * video_count}`). Billed seconds are the provider's `usage.duration`, which for the edit model already is input plus
 * output video; without it, input plus output seconds. A SUCCEEDED task without a video is failed (and refunded).
 */
export function mapDashScopeVideoTask(answer: DashScopeTaskAnswer): VideoTaskObservation {
  const source = answer.output ?? {};
  const usage = answer.usage ?? {};
  const upstreamStatus = typeof source.task_status === "string" ? source.task_status : "UNKNOWN";
  const output: Record<string, unknown> = { task_id: source.task_id, task_status: upstreamStatus };
  for (const field of outputFields) if (source[field] !== undefined) output[field] = source[field];
  const inputSeconds = numberOrUndefined(usage.input_video_duration);
  const outputSeconds = numberOrUndefined(usage.output_video_duration);
  if (inputSeconds !== undefined) output.input_video_duration = inputSeconds;
  if (outputSeconds !== undefined) output.output_video_duration = outputSeconds;
  const observation: VideoTaskObservation = { state: mapDashScopeStatus(upstreamStatus), upstreamStatus, output };
  const shownUsage: Record<string, unknown> = {};
  for (const field of usageFields) if (usage[field] !== undefined) shownUsage[field] = usage[field];
  if (Object.keys(shownUsage).length > 0) observation.usage = shownUsage;

  if (observation.state === "failed") {
    observation.error = describeFailure(upstreamStatus, source.code, source.message);
    return observation;
  }
  if (observation.state !== "completed") return observation;
  const videoUrl = typeof source.video_url === "string" && source.video_url !== "" ? source.video_url : undefined;
  if (videoUrl === undefined)
    return {
      ...observation,
      state: "failed",
      error: { code: "empty_response", message: "The provider finished the task without a video." },
    };
  observation.progress = 100;
  observation.resultUrl = videoUrl;
  observation.samples = numberOrUndefined(usage.video_count) ?? 1;
  const seconds =
    numberOrUndefined(usage.duration) ??
    (inputSeconds !== undefined || outputSeconds !== undefined
      ? (inputSeconds ?? 0) + (outputSeconds ?? 0)
      : undefined) ??
    numberOrUndefined(usage.video_duration);
  if (seconds !== undefined) observation.billedSeconds = seconds;
  return observation;
}

function mapDashScopeStatus(status: string): VideoTaskState {
  switch (status) {
    case "PENDING":
      return "queued";
    case "RUNNING":
      return "in_progress";
    case "SUCCEEDED":
      return "completed";
    case "FAILED":
    case "CANCELED":
    case "UNKNOWN":
      return "failed";
    default:
      // A status this gateway does not know yet: keep polling; the task core's expiry ends it if it never moves.
      return "in_progress";
  }
}

function describeFailure(status: string, code: unknown, message: unknown): { code: string; message: string } {
  if (typeof code === "string" || typeof message === "string")
    return {
      code: typeof code === "string" ? code : status,
      message: typeof message === "string" ? message : `The task ended as ${status}.`,
    };
  if (status === "UNKNOWN")
    return { code: "UNKNOWN", message: "The provider no longer knows the task (it is missing or expired)." };
  if (status === "CANCELED") return { code: "CANCELED", message: "The task was cancelled at the provider." };
  return { code: status, message: `The task ended as ${status}.` };
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
