import { createFakeTaskBook } from "../shared/create-fake-task-book.js";
import { createFakeVideoBytes } from "../shared/create-fake-video-bytes.js";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { sendBody } from "../shared/send-body.js";
import { startFakeUpstreamServer } from "../shared/start-fake-upstream-server.js";
import type { FakeContentTasks } from "./fake-content-tasks.js";
import { handleCreateContentTask } from "./handle-create-content-task.js";
import { handleGetContentTask } from "./handle-get-content-task.js";
import { handleListContentTasks } from "./handle-list-content-tasks.js";
import { sendArkVideoError } from "./send-ark-video-error.js";

export interface FakeArkVideoUpstream extends FakeUpstream {
  /** The tasks: their timeline (`setTimeline`), `vanish`, and every poll's time. */
  videos: FakeContentTasks["tasks"];
}

export interface FakeArkVideoServerOptions {
  port?: number;
  /** When set, API routes need `Authorization: Bearer <apiKey>` (result videos do not: they stand for signed URLs). */
  apiKey?: string;
  now?: () => number;
}

/**
 * A fake ARK content-generation (video task) upstream on 127.0.0.1. Its routes are the video half of the ARK fake;
 * the image half lives in start-fake-ark-server.ts, and one server can serve both by listing both route sets.
 */
export async function startFakeArkVideoServer(options: FakeArkVideoServerOptions = {}): Promise<FakeArkVideoUpstream> {
  const now = options.now ?? Date.now;
  let counter = 0;
  const state: FakeContentTasks = {
    tasks: createFakeTaskBook(now),
    nextId: () => {
      counter += 1;
      return `cgt-20260101000000-${String(counter).padStart(5, "0")}`;
    },
  };
  const upstream = await startFakeUpstreamServer({
    port: options.port,
    now,
    renderErrorBody: (status, message) => ({
      error: {
        code: status === 429 ? "RateLimitExceeded" : "InternalServiceError",
        message: message ?? `HTTP ${status}`,
        param: "",
        type: "",
      },
    }),
    onReset() {
      state.tasks.clear();
      counter = 0;
    },
    async handle(exchange) {
      const method = exchange.request.method ?? "GET";
      const path = exchange.url.pathname.replace(/\/+$/, "");
      const video = /^\/videos\/([\w-]+)\.(mp4|png)$/.exec(path);
      if (method === "GET" && video)
        return sendBody(exchange, 200, video[2] === "mp4" ? "video/mp4" : "image/png", createFakeVideoBytes(video[1]!));
      if (options.apiKey !== undefined && exchange.request.headers.authorization !== `Bearer ${options.apiKey}`)
        return sendArkVideoError(
          exchange,
          401,
          "AuthenticationError",
          "The API key or AK/SK in the request is missing or invalid.",
        );
      if (method === "POST" && path === "/api/v3/contents/generations/tasks")
        return handleCreateContentTask(exchange, state);
      if (method === "GET" && path === "/api/v3/contents/generations/tasks") return handleListContentTasks(exchange);
      const get = /^\/api\/v3\/contents\/generations\/tasks\/([\w-]+)$/.exec(path);
      if (method === "GET" && get) return handleGetContentTask(exchange, state, get[1]!);
      return sendArkVideoError(
        exchange,
        404,
        "InvalidEndpoint.NotFound",
        `The requested endpoint ${path} does not exist.`,
      );
    },
  });
  return Object.assign(upstream, { videos: state.tasks });
}
