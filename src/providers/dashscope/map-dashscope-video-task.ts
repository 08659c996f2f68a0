import type { UpstreamTaskStatus, VideoTaskSnapshot } from "../contract/video-task-capability.js";
import type { DashScopeTaskAnswer } from "./dashscope-video-task-types.js";

/**
 * A DashScope task answer → the task's snapshot, with the provider fields the wrapped query answer shows (times,
 * input and output seconds, `SR` and the video count). Billed seconds are the provider's `usage.duration`, which for
 * the edit model already is input plus output video; without it, input plus output seconds. A SUCCEEDED task without
 * a video is failed (and refunded).
 */
export function mapDashScopeVideoTask(answer: DashScopeTaskAnswer): VideoTaskSnapshot {
  const source = answer.output ?? {};
  const usage = answer.usage ?? {};
  const status = typeof source.task_status === "string" ? source.task_status : "UNKNOWN";
  const snapshot: VideoTaskSnapshot = mapDashScopeStatus(status);
  const output: NonNullable<VideoTaskSnapshot["output"]> = {};
  if (typeof source.submit_time === "string") output.submitTime = source.submit_time;
  if (typeof source.scheduled_time === "string") output.scheduledTime = source.scheduled_time;
  if (typeof source.end_time === "string") output.endTime = source.end_time;
  const inputSeconds = finite(usage.input_video_duration);
  const outputSeconds = finite(usage.output_video_duration);
  if (inputSeconds !== undefined) output.inputVideoDuration = inputSeconds;
  if (outputSeconds !== undefined) output.outputVideoDuration = outputSeconds;
  if (Object.keys(output).length > 0) snapshot.output = output;

  if (snapshot.status === "failed") {
    snapshot.error = describeFailure(status, source.code, source.message);
    return snapshot;
  }
  if (snapshot.status !== "completed") return snapshot;
  if (typeof source.video_url !== "string" || source.video_url === "")
    return {
      ...snapshot,
      status: "failed",
      upstreamStatus: "FAILED",
      error: { code: "empty_response", message: "The provider finished the task without a video." },
    };
  snapshot.progress = 100;
  snapshot.resultUrl = source.video_url;
  const seconds =
    finite(usage.duration) ??
    (inputSeconds !== undefined || outputSeconds !== undefined
      ? (inputSeconds ?? 0) + (outputSeconds ?? 0)
      : undefined) ??
    finite(usage.video_duration);
  if (seconds !== undefined) snapshot.seconds = seconds;
  snapshot.usage = {
    videoCount: finite(usage.video_count) ?? 1,
    ...(finite(usage.SR) === undefined ? {} : { resolution: usage.SR }),
  };
  return snapshot;
}

function mapDashScopeStatus(status: string): {
  status: VideoTaskSnapshot["status"];
  upstreamStatus: UpstreamTaskStatus;
} {
  switch (status) {
    case "PENDING":
      return { status: "queued", upstreamStatus: "PENDING" };
    case "RUNNING":
      return { status: "in_progress", upstreamStatus: "RUNNING" };
    case "SUCCEEDED":
      return { status: "completed", upstreamStatus: "SUCCEEDED" };
    case "FAILED":
    case "CANCELED":
    case "UNKNOWN":
      return { status: "failed", upstreamStatus: status };
    default:
      // A status this gateway does not know yet: keep polling; the task core's timeout ends it if it never moves.
      return { status: "in_progress", upstreamStatus: "RUNNING" };
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

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
