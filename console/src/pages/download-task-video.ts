import type { ConsoleClient } from "../api/create-console-client";
import { unwrapAnswer } from "../api/unwrap-answer";

/**
 * Fetches a finished task's video with the session's access token (`GET /api/task/self/{task_id}/content`) and
 * hands it to the browser as a file download, through a short-lived object URL. Throws ApiFailure with the
 * gateway's message when the gateway refuses (404, 409, …).
 */
export async function downloadTaskVideo(client: ConsoleClient, taskId: string): Promise<void> {
  const video = await unwrapAnswer(
    client.GET("/api/task/self/{task_id}/content", { params: { path: { task_id: taskId } }, parseAs: "blob" }),
  );
  const objectUrl = URL.createObjectURL(video);
  try {
    const link = document.createElement("a");
    link.href = objectUrl;
    link.download = `${taskId}${video.type === "video/mp4" || video.type === "" ? ".mp4" : ""}`;
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has started the download; the browser keeps the bytes it needs.
    setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
  }
}
