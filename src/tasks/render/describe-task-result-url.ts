import type { TaskRecord } from "../../store/tasks/task-record.js";
import { findVideoModelFamily } from "../find-video-model-family.js";

/**
 * Where a completed task's video is: the upstream's temporary URL when the protocol gives one; for families whose
 * bytes the gateway streams itself (vid-a-2), the gateway's own content path, so no upstream address or key leaks.
 */
export function describeTaskResultUrl(task: TaskRecord): string | undefined {
  if (task.status !== "completed") return undefined;
  if (task.resultUrl) return task.resultUrl;
  return findVideoModelFamily(task.model)?.servesContent ? `/v1/videos/${task.id}/content` : undefined;
}
