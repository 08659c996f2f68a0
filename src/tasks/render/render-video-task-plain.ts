import type { components } from "../../../generated/types/openai.js";
import type { TaskRecord } from "../../store/tasks/task-record.js";
import { describeTaskResultUrl } from "./describe-task-result-url.js";

type VideoTaskPlain = components["schemas"]["VideoTaskPlain"];

/**
 * The plain query form (`format=plain`): `succeeded` for completed, and an integer error code: the upstream's own
 * when it is a number, 504 for a timeout, 404 for a task the upstream lost, 400 for a refused prompt or image,
 * else 500.
 */
export function renderVideoTaskPlain(task: TaskRecord): VideoTaskPlain {
  const url = describeTaskResultUrl(task);
  return {
    task_id: task.id,
    status: task.status === "completed" ? "succeeded" : task.status,
    format: "mp4",
    ...(url === undefined ? {} : { url }),
    ...(task.status === "failed"
      ? { error: { code: numericErrorCode(task.errorCode), message: task.errorMessage ?? "" } }
      : {}),
  };
}

function numericErrorCode(code: string | null): number {
  if (code !== null && /^\d{3}$/.test(code)) return Number(code);
  if (code === "task_timeout") return 504;
  if (code === "upstream_task_not_found") return 404;
  if (code !== null && /moderation|inappropriate|blocked|policy|inspection|safety/i.test(code)) return 400;
  return 500;
}
