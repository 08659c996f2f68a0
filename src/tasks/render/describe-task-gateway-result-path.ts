import type { TaskRecord } from "../../store/tasks/task-record.js";
import { findVideoModelFamily } from "../find-video-model-family.js";

/**
 * The gateway's own path to a completed task's result, for the console: the content path where the gateway
 * streams the family's video, otherwise the task query path (whose answer carries the temporary URL). Never the
 * upstream URL itself, which may carry a signature or key.
 */
export function describeTaskGatewayResultPath(task: TaskRecord): string | null {
  if (task.status !== "completed") return null;
  return findVideoModelFamily(task.model)?.servesContent
    ? `/v1/videos/${task.id}/content`
    : `/v1/video/generations/${task.id}`;
}
