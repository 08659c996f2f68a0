import type { VideoTaskSnapshot } from "../../contract/video-task-capability.js";
import { listNativeVideoFiles } from "./list-native-video-files.js";
import type { NativeVideoOperation } from "./native-video-operation-types.js";

/**
 * A long-running operation (submit answer or poll) → the task's snapshot. RUNNING until `done`; then SUCCEEDED, or
 * FAILED for an rpc error or for an operation done without a sample (the safety filter took them all: the task fails
 * with the filter's reason and is refunded). Billing: the seconds per sample asked for × the samples returned. The
 * file URIs need the channel's key, so no result URL is given: the gateway serves the video from its content path.
 */
export function mapNativeVideoOperation(operation: NativeVideoOperation, secondsPerSample: number): VideoTaskSnapshot {
  if (operation.done !== true) return { status: "in_progress", upstreamStatus: "RUNNING" };
  if (operation.error !== undefined && operation.error !== null)
    return {
      status: "failed",
      upstreamStatus: "FAILED",
      error: {
        code: operation.error.status ?? String(operation.error.code ?? "FAILED"),
        message: operation.error.message ?? "The provider ended the operation with an error.",
      },
    };
  const answer = operation.response?.generateVideoResponse;
  const samples = listNativeVideoFiles(operation).length;
  if (samples === 0) {
    const filteredCount = answer?.raiMediaFilteredCount ?? 0;
    const reasons = (answer?.raiMediaFilteredReasons ?? []).filter(
      (reason) => typeof reason === "string" && reason !== "",
    );
    return {
      status: "failed",
      upstreamStatus: "FAILED",
      error: {
        code: "content_filtered",
        message:
          reasons.length > 0
            ? reasons.join(" ")
            : `The provider returned no video${filteredCount > 0 ? ` (${filteredCount} filtered by its safety filter)` : ""}.`,
      },
    };
  }
  return {
    status: "completed",
    upstreamStatus: "SUCCEEDED",
    progress: 100,
    seconds: secondsPerSample * samples,
    usage: { videoCount: samples },
    output: { outputVideoDuration: secondsPerSample },
  };
}
