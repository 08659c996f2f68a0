import type { FakeExchange } from "../shared/fake-exchange.js";
import { readJsonBody } from "../shared/read-json-body.js";
import { sendJson } from "../shared/send-json.js";
import type { FakeContentTasks } from "./fake-content-tasks.js";
import { sendArkVideoError } from "./send-ark-video-error.js";

const resolutions = ["480p", "720p", "1080p"];
const ratios = ["16:9", "4:3", "1:1", "3:4", "9:16", "21:9", "adaptive"];
const roles = ["first_frame", "last_frame", "reference_image", "reference_video", "reference_audio"];

class InvalidParameter extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * `POST /api/v3/contents/generations/tasks` as ARK answers it: the strict top-level fields are checked (a bad value is
 * a 400 InvalidParameter naming it), the legacy text commands are read loosely (a bad value falls back to the
 * default, as the provider documents), and the task starts on the fake's counted timeline.
 */
export async function handleCreateContentTask(exchange: FakeExchange, state: FakeContentTasks): Promise<void> {
  const body = readJsonBody(exchange) as Record<string, unknown> | undefined;
  try {
    if (body === undefined || typeof body !== "object")
      throw new InvalidParameter("", "The request body is not valid JSON.");
    if (typeof body.model !== "string" || body.model === "")
      throw new InvalidParameter("model", "The parameter `model` is required.");
    const content = Array.isArray(body.content) ? (body.content as Array<Record<string, unknown>>) : [];
    if (content.length === 0)
      throw new InvalidParameter("content", "The parameter `content` must be a non-empty array.");
    let text = "";
    for (const [index, item] of content.entries()) {
      if (item.type === "text" && typeof item.text === "string") text = item.text;
      else if (["image_url", "video_url", "audio_url"].includes(String(item.type))) {
        const media = item[String(item.type)] as { url?: unknown } | undefined;
        if (typeof media?.url !== "string" || media.url === "")
          throw new InvalidParameter(
            `content[${index}]`,
            `The parameter \`content[${index}].${String(item.type)}.url\` is required.`,
          );
        if (item.role !== undefined && !roles.includes(String(item.role)))
          throw new InvalidParameter(`content[${index}].role`, `The parameter \`content[${index}].role\` is invalid.`);
      } else if (item.type !== "draft_task") {
        throw new InvalidParameter(`content[${index}].type`, `The parameter \`content[${index}].type\` is invalid.`);
      }
    }
    const flags = readTextCommands(text);
    const resolution =
      strict(body.resolution, "resolution", (value) => resolutions.includes(String(value))) ?? flags.get("resolution");
    const ratio = strict(body.ratio, "ratio", (value) => ratios.includes(String(value))) ?? flags.get("ratio");
    const duration = strict(
      body.duration,
      "duration",
      (value) => value === -1 || (Number.isInteger(value) && Number(value) >= 2 && Number(value) <= 15),
    );
    const frames = strict(
      body.frames,
      "frames",
      (value) =>
        Number.isInteger(value) && Number(value) >= 29 && Number(value) <= 289 && (Number(value) - 25) % 4 === 0,
    );
    const seed = strict(
      body.seed,
      "seed",
      (value) => Number.isInteger(value) && Number(value) >= -1 && Number(value) <= 2 ** 32 - 1,
    );
    for (const field of ["camera_fixed", "watermark", "generate_audio", "return_last_frame"])
      strict(body[field], field, (value) => typeof value === "boolean");

    const seconds = Number(duration ?? flags.get("duration") ?? 5);
    const frameCount = Number(frames ?? flags.get("frames") ?? 0) || 24 * (seconds === -1 ? 5 : seconds) + 1;
    const id = state.nextId();
    state.tasks.create(id, {
      model: body.model,
      prompt: text.replace(/\s--\w+\s+\S+/g, "").trim(),
      resolution: String(resolution ?? "720p"),
      ratio: String(ratio ?? "16:9"),
      duration: (frameCount - 1) / 24,
      frames: frameCount,
      seed: Number(seed ?? flags.get("seed") ?? 42),
      generateAudio: body.generate_audio !== false && /seedance-(1-5|2-0)/.test(body.model),
      returnLastFrame: body.return_last_frame === true,
      createdAt: Math.floor(exchange.now() / 1000),
    });
    await sendJson(exchange, 200, { id });
  } catch (error) {
    if (!(error instanceof InvalidParameter)) throw error;
    await sendArkVideoError(exchange, 400, "InvalidParameter", error.message, error.param);
  }
}

function strict(value: unknown, field: string, valid: (value: unknown) => boolean): unknown {
  if (value === undefined) return undefined;
  if (!valid(value))
    throw new InvalidParameter(field, `The parameter \`${field}\` specified in the request is not valid.`);
  return value;
}

const commandNames = new Map([
  ["rs", "resolution"],
  ["resolution", "resolution"],
  ["rt", "ratio"],
  ["ratio", "ratio"],
  ["dur", "duration"],
  ["duration", "duration"],
  ["frames", "frames"],
  ["seed", "seed"],
]);

/** The legacy commands, loosely: a value that is not valid is dropped, so the default applies. */
function readTextCommands(text: string): Map<string, string> {
  const flags = new Map<string, string>();
  for (const match of text.matchAll(/(?:^|\s)--(\w+)\s+(\S+)/g)) {
    const name = commandNames.get(match[1]!.toLowerCase());
    const value = match[2]!;
    if (name === undefined) continue;
    const valid =
      name === "resolution"
        ? resolutions.includes(value)
        : name === "ratio"
          ? ratios.includes(value)
          : /^-?\d+$/.test(value);
    if (valid) flags.set(name, value);
  }
  return flags;
}
