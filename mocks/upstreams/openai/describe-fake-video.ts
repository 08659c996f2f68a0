import type { FakeVideo } from "./create-fake-video-store.js";

/** The OpenAI video object for a fake video after `polls` retrieves (its timeline decides the state). */
export function describeFakeVideo(video: FakeVideo, polls: number, nowSeconds: number): Record<string, unknown> {
  const { queuedPolls, runningPolls, outcome, reportedSeconds } = video.timeline;
  let status: string;
  let progress: number;
  if (polls <= queuedPolls) {
    status = "queued";
    progress = 0;
  } else if (polls <= queuedPolls + runningPolls) {
    status = "in_progress";
    progress = Math.round((100 * (polls - queuedPolls)) / (runningPolls + 1));
  } else {
    status = outcome;
    progress = 100;
    video.completedAt ??= nowSeconds;
  }
  const finished = status === "completed" || status === "failed";
  return {
    id: video.id,
    object: "video",
    model: video.model,
    status,
    progress,
    created_at: video.createdAt,
    completed_at: finished ? video.completedAt : null,
    expires_at: status === "completed" ? (video.completedAt ?? nowSeconds) + 3600 : null,
    prompt: video.prompt,
    seconds: status === "completed" && reportedSeconds !== undefined ? String(reportedSeconds) : video.seconds,
    size: video.size,
    error:
      status === "failed"
        ? { code: "moderation_blocked", message: "Your request was blocked by our moderation system." }
        : null,
    remixed_from_video_id: video.remixedFromVideoId,
  };
}
