import type { FakeExchange } from "../shared/fake-exchange.js";
import { sendJson } from "../shared/send-json.js";

/**
 * `GET /api/v1/tasks/{task_id}` on a fake that holds no tasks: DashScope answers a missing or expired task with
 * HTTP 200 and `task_status: "UNKNOWN"` (UPSTREAM-PROTOCOLS.md §3). The gateway's channel test reads such a task
 * to prove the key and the base URL (the server's key check answers 401 InvalidApiKey before this runs).
 */
export async function handleGetUnknownTask(exchange: FakeExchange, taskId: string): Promise<void> {
  return sendJson(exchange, 200, {
    request_id: `req-task-${exchange.now()}`,
    output: { task_id: taskId, task_status: "UNKNOWN" },
  });
}
