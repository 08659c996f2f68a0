import type { FakeExchange } from "../shared/fake-exchange.js";
import { sendJson } from "../shared/send-json.js";
import type { FakeDashscopeVideoTasks } from "./fake-dashscope-video-tasks.js";
import { formatDashscopeTime } from "./format-dashscope-time.js";

/**
 * `GET /api/v1/tasks/{task_id}`: PENDING, RUNNING, then the outcome the prompt asks for (`[fail]` → FAILED with
 * DataInspectionFailed, `[cancel]` → CANCELED, else SUCCEEDED with a video on the fake's origin and the usage of the
 * model: edit models report input plus output seconds as `duration`). An unknown or vanished task is HTTP 200
 * UNKNOWN, as the provider answers for expired tasks.
 */
export async function handleGetDashscopeTask(
  exchange: FakeExchange,
  state: FakeDashscopeVideoTasks,
  id: string,
): Promise<void> {
  const requestId = `req-poll-${exchange.now()}`;
  const found = state.tasks.poll(id);
  if (found === undefined)
    return sendJson(exchange, 200, { request_id: requestId, output: { task_id: id, task_status: "UNKNOWN" } });
  const { task, phase } = found;
  const input = task.input;
  const times = { submit_time: input.submitTime, scheduled_time: input.submitTime };
  if (phase === "queued")
    return sendJson(exchange, 200, {
      request_id: requestId,
      output: { task_id: id, task_status: "PENDING", ...times },
    });
  if (phase === "running")
    return sendJson(exchange, 200, {
      request_id: requestId,
      output: { task_id: id, task_status: "RUNNING", ...times },
    });
  const end = { ...times, end_time: formatDashscopeTime(exchange.now()) };
  if (input.prompt.includes("[fail]"))
    return sendJson(exchange, 200, {
      request_id: requestId,
      output: {
        task_id: id,
        task_status: "FAILED",
        ...end,
        code: "DataInspectionFailed",
        message: "Output data may contain inappropriate content.",
      },
    });
  if (input.prompt.includes("[cancel]"))
    return sendJson(exchange, 200, { request_id: requestId, output: { task_id: id, task_status: "CANCELED", ...end } });
  const origin = `http://${exchange.request.headers.host ?? "127.0.0.1"}`;
  return sendJson(exchange, 200, {
    request_id: requestId,
    output: {
      task_id: id,
      task_status: "SUCCEEDED",
      ...end,
      orig_prompt: input.prompt,
      actual_prompt: `${input.prompt}, cinematic lighting`,
      video_url: `${origin}/videos/${id}.mp4?Expires=1893456000&Signature=fake`,
    },
    usage: {
      SR: input.resolution,
      duration: Math.round((input.inputDuration + input.duration) * 100) / 100,
      input_video_duration: input.inputDuration,
      output_video_duration: input.duration,
      video_count: 1,
    },
  });
}
