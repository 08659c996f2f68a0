import type { TaskStatus } from "../api/management-types";

const labels: Record<TaskStatus, string> = {
  queued: "Queued",
  in_progress: "In progress",
  completed: "Completed",
  failed: "Failed",
};

/** A task status as words, so it never rests on colour alone. */
export function describeTaskStatus(status: TaskStatus): string {
  return labels[status];
}
