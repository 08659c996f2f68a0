import type { FakeExchange } from "../shared/fake-exchange.js";
import { sendBody } from "../shared/send-body.js";
import { sendJson } from "../shared/send-json.js";
import type { IdSequence } from "../shared/create-id-sequence.js";
import { createFakeMp4 } from "./create-fake-mp4.js";
import type { FakeVideoStore } from "./create-fake-video-store.js";
import { describeFakeVideo } from "./describe-fake-video.js";
import { OpenaiRequestError } from "./openai-request-error.js";
import { readJsonObjectBody } from "./read-json-object-body.js";

const allowedSeconds = ["4", "8", "12"];
const allowedSizes = ["720x1280", "1280x720", "1024x1792", "1792x1024"];

async function readCreateFields(
  exchange: FakeExchange,
): Promise<{ fields: Record<string, string>; file: File | null }> {
  const contentType = exchange.request.headers["content-type"] ?? "";
  if (contentType.toLowerCase().startsWith("multipart/form-data")) {
    const request = new Request("http://fake.invalid/", {
      method: "POST",
      headers: { "content-type": contentType },
      body: exchange.body.raw,
    });
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw new OpenaiRequestError(400, "Could not parse multipart form");
    }
    const fields: Record<string, string> = {};
    let file: File | null = null;
    for (const [name, value] of form.entries()) {
      if (typeof value === "string") fields[name] = value;
      else if (name === "input_reference") file = value;
    }
    return { fields, file };
  }
  const body = readJsonObjectBody(exchange);
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(body))
    if (value !== null && value !== undefined) fields[name] = String(value);
  return { fields, file: null };
}

function sendFaultIfAny(exchange: FakeExchange, status: number | undefined): Promise<void> | undefined {
  if (status === undefined) return undefined;
  const headers = status === 429 ? { "retry-after": "0" } : {};
  const message =
    status === 429 ? "Rate limit reached for videos." : "The server had an error while processing your request.";
  return sendJson(
    exchange,
    status,
    { error: { message, type: status === 429 ? "rate_limit_error" : "server_error", param: null, code: null } },
    headers,
  );
}

/**
 * The OpenAI Videos API: POST /v1/videos (multipart or JSON), GET /v1/videos/{id}, GET /v1/videos/{id}/content,
 * POST /v1/videos/{id}/remix. Each retrieve moves a video one step along its timeline (create-fake-video-store.ts).
 */
export async function handleVideos(
  exchange: FakeExchange,
  store: FakeVideoStore,
  ids: IdSequence,
  path: string,
): Promise<boolean> {
  const method = exchange.request.method ?? "GET";
  const nowSeconds = Math.floor(exchange.now() / 1000);
  if (method === "POST" && path === "/v1/videos") {
    const { fields, file } = await readCreateFields(exchange);
    if (!fields.prompt)
      throw new OpenaiRequestError(400, "Missing required parameter: 'prompt'.", "invalid_request_error", "prompt");
    const seconds = fields.seconds ?? "4";
    if (!allowedSeconds.includes(seconds))
      throw new OpenaiRequestError(
        400,
        `Invalid value: '${seconds}'.`,
        "invalid_request_error",
        "seconds",
        "invalid_value",
      );
    const size = fields.size ?? "720x1280";
    if (!allowedSizes.includes(size))
      throw new OpenaiRequestError(400, `Invalid value: '${size}'.`, "invalid_request_error", "size", "invalid_value");
    const fault = sendFaultIfAny(exchange, store.takeCreateFault());
    if (fault) return fault.then(() => true);
    const video = store.create({
      id: ids.next("video_fake"),
      model: fields.model ?? "sora-2",
      prompt: fields.prompt,
      seconds,
      size,
      createdAt: nowSeconds,
      remixedFromVideoId: null,
      inputReference: file ? { name: file.name, type: file.type, size: file.size } : null,
    });
    await sendJson(exchange, 200, describeFakeVideo(video, 0, nowSeconds));
    return true;
  }
  const match = /^\/v1\/videos\/([^/]+)(\/content|\/remix)?$/.exec(path);
  if (!match) return false;
  const id = decodeURIComponent(match[1]!);
  const video = store.get(id);
  const notFound = () =>
    new OpenaiRequestError(404, `Video with id '${id}' not found.`, "invalid_request_error", null, "not_found");
  if (method === "GET" && match[2] === undefined) {
    const fault = sendFaultIfAny(exchange, store.takeRetrieveFault());
    if (fault) return fault.then(() => true);
    if (!video) throw notFound();
    video.retrievals.push(exchange.now());
    await sendJson(exchange, 200, describeFakeVideo(video, video.retrievals.length, nowSeconds));
    return true;
  }
  if (method === "GET" && match[2] === "/content") {
    if (!video) throw notFound();
    if (video.completedAt === null || video.timeline.outcome !== "completed")
      throw new OpenaiRequestError(400, "Video is not ready yet.", "invalid_request_error", null, "video_not_ready");
    const bytes = createFakeMp4(video.prompt);
    await sendBody(exchange, 200, "video/mp4", bytes);
    return true;
  }
  if (method === "POST" && match[2] === "/remix") {
    const body = readJsonObjectBody(exchange);
    if (typeof body.prompt !== "string" || body.prompt === "")
      throw new OpenaiRequestError(400, "Missing required parameter: 'prompt'.", "invalid_request_error", "prompt");
    if (!video) throw notFound();
    if (video.completedAt === null || video.timeline.outcome !== "completed")
      throw new OpenaiRequestError(400, "Only completed videos can be remixed.", "invalid_request_error");
    const fault = sendFaultIfAny(exchange, store.takeCreateFault());
    if (fault) return fault.then(() => true);
    const remix = store.create({
      id: ids.next("video_fake"),
      model: video.model,
      prompt: body.prompt,
      seconds: video.seconds,
      size: video.size,
      createdAt: nowSeconds,
      remixedFromVideoId: video.id,
      inputReference: null,
    });
    await sendJson(exchange, 200, describeFakeVideo(remix, 0, nowSeconds));
    return true;
  }
  return false;
}
