import { randomUUID } from "node:crypto";
import { createFakeTaskBook } from "../shared/create-fake-task-book.js";
import { createFakeVideoBytes } from "../shared/create-fake-video-bytes.js";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { sendBody } from "../shared/send-body.js";
import { startFakeUpstreamServer } from "../shared/start-fake-upstream-server.js";
import type { FakeDashscopeVideoTasks } from "./fake-dashscope-video-tasks.js";
import { handleCreateVideoSynthesis } from "./handle-create-video-synthesis.js";
import { handleGetDashscopeTask } from "./handle-get-dashscope-task.js";
import { sendDashscopeVideoError } from "./send-dashscope-video-error.js";

export interface FakeDashscopeVideoUpstream extends FakeUpstream {
  /** The tasks: their timeline (`setTimeline`), `vanish`, and every poll's time. */
  videos: FakeDashscopeVideoTasks["tasks"];
}

export interface FakeDashscopeVideoServerOptions {
  port?: number;
  /** When set, API routes need `Authorization: Bearer <apiKey>` (result videos do not: they stand for signed URLs). */
  apiKey?: string;
  now?: () => number;
  /** Task ids; random UUIDs (as the provider's) by default. */
  createTaskId?: () => string;
}

/**
 * A fake DashScope video-synthesis upstream on 127.0.0.1. Its routes are the video half of the DashScope fake; the
 * image half lives in start-fake-dashscope-server.ts, and one server can serve both by listing both route sets.
 */
export async function startFakeDashscopeVideoServer(
  options: FakeDashscopeVideoServerOptions = {},
): Promise<FakeDashscopeVideoUpstream> {
  const now = options.now ?? Date.now;
  const state: FakeDashscopeVideoTasks = { tasks: createFakeTaskBook(now), nextId: options.createTaskId ?? randomUUID };
  const upstream = await startFakeUpstreamServer({
    port: options.port,
    now,
    renderErrorBody: (status, message) => ({
      code: status === 429 ? "Throttling.RateQuota" : status >= 500 ? "InternalError" : "InvalidParameter",
      message: message ?? `HTTP ${status}`,
      request_id: "req-fault",
    }),
    onReset: () => state.tasks.clear(),
    async handle(exchange) {
      const method = exchange.request.method ?? "GET";
      const path = exchange.url.pathname.replace(/\/+$/, "");
      const video = /^\/videos\/([\w-]+)\.mp4$/.exec(path);
      if (method === "GET" && video) return sendBody(exchange, 200, "video/mp4", createFakeVideoBytes(video[1]!));
      if (options.apiKey !== undefined && exchange.request.headers.authorization !== `Bearer ${options.apiKey}`)
        return sendDashscopeVideoError(exchange, 401, "InvalidApiKey", "Invalid API-key provided.");
      if (method === "POST" && path === "/api/v1/services/aigc/video-generation/video-synthesis")
        return handleCreateVideoSynthesis(exchange, state);
      const task = /^\/api\/v1\/tasks\/([\w-]+)$/.exec(path);
      if (method === "GET" && task) return handleGetDashscopeTask(exchange, state, task[1]!);
      return sendDashscopeVideoError(exchange, 404, "NotFound", `Path ${path} not found.`);
    },
  });
  return Object.assign(upstream, { videos: state.tasks });
}
