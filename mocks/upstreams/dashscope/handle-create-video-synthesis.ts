import type { FakeExchange } from "../shared/fake-exchange.js";
import { readJsonBody } from "../shared/read-json-body.js";
import { sendJson } from "../shared/send-json.js";
import type { FakeDashscopeVideoTasks } from "./fake-dashscope-video-tasks.js";
import { formatDashscopeTime } from "./format-dashscope-time.js";
import { sendDashscopeVideoError } from "./send-dashscope-video-error.js";

const resolutions = new Map([
  ["480P", 480],
  ["720P", 720],
  ["1080P", 1080],
]);
/** The fake's edit sources are all this long (real ones run 2 to 10 s). */
const editSourceSeconds = 6.62;

/**
 * `POST /api/v1/services/aigc/video-generation/video-synthesis`: asynchronous only (without `X-DashScope-Async:
 * enable` the provider refuses), parameters checked as the provider does (400 InvalidParameter), edit models need a
 * `{type: video}` media item; answers the PENDING task.
 */
export async function handleCreateVideoSynthesis(
  exchange: FakeExchange,
  state: FakeDashscopeVideoTasks,
): Promise<void> {
  if (exchange.request.headers["x-dashscope-async"] !== "enable")
    return sendDashscopeVideoError(
      exchange,
      403,
      "AccessDenied",
      "current user api does not support synchronous calls",
    );
  const body = readJsonBody(exchange) as
    | { model?: unknown; input?: Record<string, unknown>; parameters?: Record<string, unknown> }
    | undefined;
  const invalid = (message: string) => sendDashscopeVideoError(exchange, 400, "InvalidParameter", message);
  if (body === undefined || typeof body !== "object") return invalid("The request body is not valid JSON.");
  if (typeof body.model !== "string" || body.model === "")
    return sendDashscopeVideoError(
      exchange,
      400,
      "BadRequest.EmptyModel",
      'Required parameter "model" missing from request.',
    );
  const input = body.input ?? {};
  const parameters = body.parameters ?? {};
  const edit = body.model.includes("videoedit") || body.model.includes("video-edit");
  const media = Array.isArray(input.media) ? (input.media as Array<{ type?: unknown; url?: unknown }>) : [];
  if (edit && !media.some((item) => item.type === "video" && typeof item.url === "string"))
    return invalid("input.media must contain one item of type video.");
  if (typeof input.prompt !== "string" && !edit && media.length === 0)
    return sendDashscopeVideoError(
      exchange,
      400,
      "BadRequest.EmptyInput",
      'Required parameter "input.prompt" missing from request.',
    );
  const resolution = parameters.resolution === undefined ? 720 : resolutions.get(String(parameters.resolution));
  if (resolution === undefined) return invalid("parameters.resolution must be one of 480P, 720P, 1080P.");
  if (parameters.size !== undefined && !/^\d+\*\d+$/.test(String(parameters.size)))
    return invalid("parameters.size must be width*height.");
  const duration = parameters.duration === undefined ? (edit ? 0 : 5) : parameters.duration;
  if (!Number.isInteger(duration) || Number(duration) < 0 || Number(duration) > 15)
    return invalid("parameters.duration must be an integer.");
  const seed = parameters.seed;
  if (seed !== undefined && (!Number.isInteger(seed) || Number(seed) < 0 || Number(seed) > 2147483647))
    return invalid("parameters.seed must be in [0, 2147483647].");
  const id = state.nextId();
  const outputSeconds = edit && duration === 0 ? editSourceSeconds : Number(duration);
  state.tasks.create(id, {
    model: body.model,
    prompt: typeof input.prompt === "string" ? input.prompt : "",
    resolution,
    duration: outputSeconds,
    inputDuration: edit ? editSourceSeconds : 0,
    submitTime: formatDashscopeTime(exchange.now()),
  });
  return sendJson(exchange, 200, { output: { task_id: id, task_status: "PENDING" }, request_id: `req-${id}` });
}
