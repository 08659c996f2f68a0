import type { TaskStatus } from "../../../store/tasks/task-record.js";
import type { UpstreamTaskStatus } from "../../contract/video-task-capability.js";

/** OpenAI video `status` → our task status and the documented upstream vocabulary; an unknown word stays in flight. */
export function mapOpenaiVideoStatus(status: string | undefined): {
  status: TaskStatus;
  upstreamStatus: UpstreamTaskStatus;
} {
  switch (status) {
    case "queued":
      return { status: "queued", upstreamStatus: "PENDING" };
    case "in_progress":
      return { status: "in_progress", upstreamStatus: "RUNNING" };
    case "completed":
      return { status: "completed", upstreamStatus: "SUCCEEDED" };
    case "failed":
      return { status: "failed", upstreamStatus: "FAILED" };
    default:
      return { status: "in_progress", upstreamStatus: "UNKNOWN" };
  }
}
