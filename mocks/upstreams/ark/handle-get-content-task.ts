import type { FakeExchange } from "../shared/fake-exchange.js";
import { sendJson } from "../shared/send-json.js";
import type { FakeContentTasks } from "./fake-content-tasks.js";
import { sendArkVideoError } from "./send-ark-video-error.js";

/**
 * `GET /api/v3/contents/generations/tasks/{id}`: `queued`, `running`, then the outcome the prompt asks for (`[fail]`
 * → failed with the output moderation code, `[expire]` → expired, `[cancel]` → cancelled, else succeeded with a
 * video hosted on the fake's origin and ARK's token usage: about one token per 1024 pixels of every frame).
 */
export async function handleGetContentTask(exchange: FakeExchange, state: FakeContentTasks, id: string): Promise<void> {
  const found = state.tasks.poll(id);
  if (found === undefined)
    return sendArkVideoError(exchange, 404, "ResourceNotFound", `The specified task ${id} is not found.`);
  const { task, phase } = found;
  const input = task.input;
  const base = {
    id,
    model: input.model,
    created_at: input.createdAt,
    updated_at: Math.floor(exchange.now() / 1000),
  };
  if (phase !== "done") return sendJson(exchange, 200, { ...base, status: phase });
  if (input.prompt.includes("[fail]"))
    return sendJson(exchange, 200, {
      ...base,
      status: "failed",
      error: {
        code: "OutputVideoSensitiveContentDetected",
        message: "The request failed because the output video may contain sensitive information.",
      },
    });
  if (input.prompt.includes("[expire]")) return sendJson(exchange, 200, { ...base, status: "expired" });
  if (input.prompt.includes("[cancel]")) return sendJson(exchange, 200, { ...base, status: "cancelled" });
  const origin = `http://${exchange.request.headers.host ?? "127.0.0.1"}`;
  const tokens = Math.round((pixels(input.resolution) * input.frames) / 1024);
  return sendJson(exchange, 200, {
    ...base,
    status: "succeeded",
    content: {
      video_url: `${origin}/videos/${id}.mp4`,
      ...(input.returnLastFrame ? { last_frame_url: `${origin}/videos/${id}-last.png` } : {}),
    },
    usage: { completion_tokens: tokens, total_tokens: tokens },
    seed: input.seed,
    resolution: input.resolution,
    ratio: input.ratio,
    duration: input.duration,
    framespersecond: 24,
    generate_audio: input.generateAudio,
    service_tier: "default",
    execution_expires_after: 172800,
  });
}

function pixels(resolution: string): number {
  return resolution === "480p" ? 854 * 480 : resolution === "1080p" ? 1920 * 1080 : 1280 * 720;
}
