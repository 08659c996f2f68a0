import type { VideoTaskObservation } from "../../video/video-task-observation.js";
import type { NativeVideoOperation } from "./native-video-operation-types.js";

/**
 * A long-running operation (submit answer or poll) → the gateway's view of the task. The operation has no status
 * word of its own, so the gateway names one for troubleshooting: RUNNING until `done`, then SUCCEEDED, FAILED (an
 * rpc error) or FILTERED (done without a sample: the safety filter took them all, which fails and refunds the task
 * with the filter's reason). Billing: the seconds asked for at submission × the samples actually returned. The file
 * URIs need the channel's key, so they are kept for the gateway's own content path and never shown.
 */
export function mapNativeVideoOperation(
  operation: NativeVideoOperation,
  durationSeconds: number,
): VideoTaskObservation {
  const output: Record<string, unknown> = { task_id: operation.name };
  if (operation.done !== true)
    return { state: "in_progress", upstreamStatus: "RUNNING", output: { ...output, task_status: "RUNNING" } };
  if (operation.error !== undefined && operation.error !== null) {
    return {
      state: "failed",
      upstreamStatus: "FAILED",
      output: { ...output, task_status: "FAILED" },
      error: {
        code: operation.error.status ?? String(operation.error.code ?? "FAILED"),
        message: operation.error.message ?? "The provider ended the operation with an error.",
      },
    };
  }
  const answer = operation.response?.generateVideoResponse;
  const uris = (answer?.generatedSamples ?? [])
    .map((sample) => sample.video?.uri)
    .filter((uri): uri is string => typeof uri === "string" && uri !== "");
  const filteredCount = answer?.raiMediaFilteredCount ?? 0;
  if (uris.length === 0) {
    const reasons = (answer?.raiMediaFilteredReasons ?? []).filter(
      (reason) => typeof reason === "string" && reason !== "",
    );
    return {
      state: "failed",
      upstreamStatus: "FILTERED",
      output: { ...output, task_status: "FILTERED" },
      error: {
        code: "content_filtered",
        message:
          reasons.length > 0
            ? reasons.join(" ")
            : `The provider returned no video${filteredCount > 0 ? ` (${filteredCount} filtered by its safety filter)` : ""}.`,
      },
    };
  }
  const usage: Record<string, unknown> = { duration: durationSeconds, video_count: uris.length };
  if (filteredCount > 0) usage.filtered_count = filteredCount;
  return {
    state: "completed",
    upstreamStatus: "SUCCEEDED",
    progress: 100,
    resultUrl: uris[0],
    samples: uris.length,
    billedSeconds: durationSeconds,
    output: { ...output, task_status: "SUCCEEDED" },
    usage,
  };
}
