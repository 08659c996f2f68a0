import type { components } from "../../../generated/types/openai.js";
import type { TaskRecord } from "../../store/tasks/task-record.js";
import { describeTaskResultUrl } from "./describe-task-result-url.js";

type OpenaiVideo = components["schemas"]["OpenaiVideo"];

/** A task as the OpenAI video object (POST /v1/videos, GET /v1/videos/{id}, remix). */
export function renderOpenaiVideo(task: TaskRecord): OpenaiVideo {
  const request = (task.requestBody ?? {}) as {
    prompt?: string;
    seconds?: string;
    size?: string;
    remix_from_video_id?: string;
  };
  const url = describeTaskResultUrl(task);
  return {
    id: task.id,
    object: "video",
    model: task.model,
    status: task.status,
    progress: task.progress,
    created_at: task.createdTime,
    completed_at: task.completedTime,
    ...(request.prompt === undefined ? {} : { prompt: request.prompt }),
    ...(task.billedSeconds !== null
      ? { seconds: String(task.billedSeconds) }
      : request.seconds === undefined
        ? {}
        : { seconds: request.seconds }),
    ...(request.size === undefined ? {} : { size: request.size }),
    ...(url === undefined ? {} : { url }),
    remixed_from_video_id: request.remix_from_video_id ?? null,
    error:
      task.status === "failed"
        ? { code: task.errorCode ?? "video_generation_failed", message: task.errorMessage ?? "" }
        : null,
  };
}
