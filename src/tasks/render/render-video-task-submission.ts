import type { components } from "../../../generated/types/openai.js";
import type { TaskRecord } from "../../store/tasks/task-record.js";

type VideoTask = components["schemas"]["VideoTask"];

/** The answer of POST /v1/video/generations (OpenAI-video style); task_id in metadata is ours too. */
export function renderVideoTaskSubmission(task: TaskRecord): VideoTask {
  return {
    id: task.id,
    object: "video",
    model: task.model,
    status: task.status,
    progress: task.progress,
    created_at: task.createdTime,
    metadata: {
      output: { task_id: task.id, task_status: task.upstreamStatus ?? "PENDING" },
      ...(task.reservationId ? { request_id: task.reservationId } : {}),
    },
  };
}
