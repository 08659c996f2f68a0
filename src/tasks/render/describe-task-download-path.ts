import type { TaskRecord } from "../../store/tasks/task-record.js";
import { findVideoModelFamily } from "../find-video-model-family.js";

/**
 * The console's download path of a completed task whose video the gateway streams (`/api/task/self/{id}/content`,
 * served with the user access token); null for other tasks.
 */
export function describeTaskDownloadPath(task: TaskRecord): string | null {
  if (task.status !== "completed" || !findVideoModelFamily(task.model)?.servesContent) return null;
  return `/api/task/self/${task.id}/content`;
}
