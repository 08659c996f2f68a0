import type { VideoTaskSnapshot } from "../../contract/video-task-capability.js";
import { mapOpenaiVideoStatus } from "./map-openai-video-status.js";
import type { OpenaiVideoObject } from "./openai-video-object.js";

/** An OpenAI video object → the normalized snapshot. OpenAI gives no result URL: the bytes come from /content. */
export function convertOpenaiVideoToSnapshot(video: OpenaiVideoObject): VideoTaskSnapshot {
  const { status, upstreamStatus } = mapOpenaiVideoStatus(video.status);
  const snapshot: VideoTaskSnapshot = { status, upstreamStatus };
  if (typeof video.progress === "number" && Number.isFinite(video.progress))
    snapshot.progress = Math.min(100, Math.max(0, Math.round(video.progress)));
  const seconds = Number(video.seconds);
  if (video.seconds !== undefined && Number.isFinite(seconds) && seconds >= 0) {
    snapshot.seconds = seconds;
    if (status === "completed") snapshot.output = { outputVideoDuration: seconds };
  }
  const height = /^(\d+)x(\d+)$/.exec(video.size ?? "");
  if (status === "completed") {
    snapshot.usage = {
      videoCount: 1,
      ...(height ? { resolution: Math.min(Number(height[1]), Number(height[2])) } : {}),
    };
    if (typeof video.completed_at === "number") snapshot.completedAt = video.completed_at;
  }
  if (status === "failed") {
    snapshot.error = {
      code: video.error?.code ?? "video_generation_failed",
      message: video.error?.message ?? "The upstream reported the video as failed.",
    };
    if (typeof video.completed_at === "number") snapshot.completedAt = video.completed_at;
  }
  return snapshot;
}
