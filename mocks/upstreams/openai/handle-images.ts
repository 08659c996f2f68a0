import type { IdSequence } from "../shared/create-id-sequence.js";
import type { FakeExchange } from "../shared/fake-exchange.js";
import { sendJson } from "../shared/send-json.js";
import { splitWords } from "../shared/split-words.js";
import { createTinyPng } from "../native/create-tiny-png.js";
import { OpenaiRequestError } from "./openai-request-error.js";
import { readJsonObjectBody } from "./read-json-object-body.js";
import { requireModel } from "./require-model.js";

/** Output tokens the fake reports per generated image, whatever its size. */
export const FAKE_IMAGE_OUTPUT_TOKENS = 100;
/** Input tokens the fake reports per input (reference) image. */
export const FAKE_IMAGE_INPUT_TOKENS = 50;

/** The one image every request produces: a 1×1 PNG, base64 (what `b64_json` carries). */
export const FAKE_IMAGE_B64 = createTinyPng(1, 1, [200, 120, 40]).toString("base64");

/** The largest padded image a prompt may ask for (`[b64-bytes:N]`), so a typo cannot exhaust the fake's memory. */
const maximumPaddedB64Bytes = 64 * 1024 * 1024;
let lastPadded: { characters: number; b64: string } | undefined;

/**
 * `[b64-bytes:N]` in the prompt (the benchmark's large-answer knob): the image becomes the tiny PNG followed by zero
 * bytes, as base64 of N characters rounded down to a multiple of 4 (at least the PNG's own). The last one is kept,
 * so a run of equal requests does not build it again.
 */
export function readPaddedImageB64(prompt: string): string | undefined {
  const marker = /\[b64-bytes:(\d+)\]/.exec(prompt);
  if (!marker) return undefined;
  const characters = Math.max(FAKE_IMAGE_B64.length, Math.min(Number(marker[1]), maximumPaddedB64Bytes));
  if (lastPadded?.characters !== characters) {
    const bytes = Buffer.alloc(Math.floor(characters / 4) * 3);
    Buffer.from(FAKE_IMAGE_B64, "base64").copy(bytes);
    lastPadded = { characters, b64: bytes.toString("base64") };
  }
  return lastPadded.b64;
}

interface ImageRequest {
  fields: Record<string, unknown>;
  inputImages: number;
}

async function readImageRequest(exchange: FakeExchange, task: "generations" | "edits"): Promise<ImageRequest> {
  const contentType = exchange.request.headers["content-type"] ?? "";
  if (contentType.toLowerCase().startsWith("multipart/form-data")) {
    if (task === "generations")
      throw new OpenaiRequestError(400, "Invalid Content-Type header (expected application/json).");
    // The platform's own multipart parser (undici), as the audio handlers use.
    const form = await new Request("http://fake.invalid/", {
      method: "POST",
      headers: { "content-type": contentType },
      body: exchange.body.raw,
    })
      .formData()
      .catch(() => {
        throw new OpenaiRequestError(400, "Could not parse multipart form");
      });
    const fields: Record<string, unknown> = {};
    let inputImages = 0;
    for (const [name, value] of form.entries()) {
      if (typeof value === "string") fields[name] = name === "n" ? Number(value) : value;
      else if (name === "image" || name === "image[]") inputImages += 1;
    }
    return { fields, inputImages };
  }
  const fields = readJsonObjectBody(exchange);
  const messages = (fields.input as { messages?: unknown } | undefined)?.messages;
  if (Array.isArray(messages)) return readMessagesRequest(fields, messages);
  const images = [fields.image, fields.images].flat().filter((image) => typeof image === "string" && image !== "");
  return { fields, inputImages: images.length };
}

/**
 * The `img-d-` form: prompt and images come as `{text}` / `{image}` parts of input.messages, the count as
 * parameters.n. Read into the common fields so the rest of the handler stays one path.
 */
function readMessagesRequest(fields: Record<string, unknown>, messages: unknown[]): ImageRequest {
  const parts = messages.flatMap((message) => {
    const content = (message as { content?: unknown } | null)?.content;
    return Array.isArray(content) ? (content as Array<Record<string, unknown>>) : [];
  });
  const prompt = parts.flatMap((part) => (typeof part?.text === "string" ? [part.text] : [])).join(" ");
  const inputImages = parts.filter((part) => typeof part?.image === "string").length;
  const parameters = (fields.parameters ?? {}) as Record<string, unknown>;
  return { fields: { ...fields, prompt, n: parameters.n ?? fields.n }, inputImages };
}

/** Models the fake treats as GPT-image models (the `img-c-` family's upstream): base64 only, no response_format. */
export function isGptImageModel(model: string): boolean {
  return /^(gpt-image|chatgpt-image)|img-c-/i.test(model);
}

const gptImageSizes = ["1024x1024", "1536x1024", "1024x1536", "auto"];
const gptImageQualities = ["low", "medium", "high", "auto"];

/**
 * What a GPT-image model checks beyond the common fields: `response_format` is an unknown parameter to it, size and
 * quality come from its own lists, input_fidelity belongs to edits. `[moderation]` in the prompt plays the safety
 * system's refusal.
 */
function checkGptImageRequest(fields: Record<string, unknown>, task: "generations" | "edits"): void {
  if (fields.response_format !== undefined)
    throw new OpenaiRequestError(
      400,
      "Unknown parameter: 'response_format'.",
      "invalid_request_error",
      "response_format",
      "unknown_parameter",
    );
  if (fields.size !== undefined && !gptImageSizes.includes(String(fields.size)))
    throw new OpenaiRequestError(
      400,
      `Invalid value: '${String(fields.size)}'. Supported values are: '1024x1024', '1024x1536', '1536x1024', and 'auto'.`,
      "invalid_request_error",
      "size",
      "invalid_value",
    );
  if (fields.quality !== undefined && !gptImageQualities.includes(String(fields.quality)))
    throw new OpenaiRequestError(
      400,
      `Invalid value: '${String(fields.quality)}'. Supported values are: 'low', 'medium', 'high', and 'auto'.`,
      "invalid_request_error",
      "quality",
      "invalid_value",
    );
  if (fields.input_fidelity !== undefined && task !== "edits")
    throw new OpenaiRequestError(
      400,
      "Unknown parameter: 'input_fidelity'.",
      "invalid_request_error",
      "input_fidelity",
      "unknown_parameter",
    );
  if (typeof fields.prompt === "string" && fields.prompt.includes("[moderation]"))
    throw new OpenaiRequestError(
      400,
      "Your request was rejected as a result of our safety system. Your request may contain content that is not allowed by our safety system.",
      "image_generation_user_error",
      null,
      "moderation_blocked",
    );
}

/**
 * POST /v1/images/generations and /v1/images/edits (JSON, and multipart for edits). Deterministic: `n` copies of
 * one tiny PNG as `b64_json`, or `https://images.invalid/<id>.png` URLs for `response_format: url` (the default);
 * usage counts prompt words plus FAKE_IMAGE_INPUT_TOKENS per input image in, FAKE_IMAGE_OUTPUT_TOKENS per image out.
 * The `img-d-` form (input.messages + parameters) is accepted too. GPT-image models (isGptImageModel) answer as
 * OpenAI's do: always `b64_json`, `response_format` refused, with `size`, `quality`, `output_format` and
 * `background` beside `data`; `[empty]` in their prompt gives an empty `data`.
 */
export async function handleImages(
  exchange: FakeExchange,
  ids: IdSequence,
  task: "generations" | "edits",
): Promise<void> {
  const { fields, inputImages } = await readImageRequest(exchange, task);
  requireModel(fields);
  const prompt = fields.prompt;
  if (typeof prompt !== "string" || prompt.trim() === "") {
    throw new OpenaiRequestError(
      400,
      "Missing required parameter: 'prompt'.",
      "invalid_request_error",
      "prompt",
      "missing_required_parameter",
    );
  }
  if (task === "edits" && inputImages === 0) {
    throw new OpenaiRequestError(
      400,
      "Missing required parameter: 'image'.",
      "invalid_request_error",
      "image",
      "missing_required_parameter",
    );
  }
  const n = fields.n ?? 1;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > 10) {
    throw new OpenaiRequestError(
      400,
      `Invalid 'n': expected an integer between 1 and 10, but got ${String(n)} instead.`,
      "invalid_request_error",
      "n",
      "invalid_value",
    );
  }
  const gptImage = isGptImageModel(String(fields.model));
  if (gptImage) checkGptImageRequest(fields, task);
  const responseFormat = gptImage ? "b64_json" : (fields.response_format ?? "url");
  if (responseFormat !== "url" && responseFormat !== "b64_json") {
    throw new OpenaiRequestError(
      400,
      `Invalid value: '${String(responseFormat)}'. Supported values are: 'url' and 'b64_json'.`,
      "invalid_request_error",
      "response_format",
      "invalid_value",
    );
  }
  const textTokens = splitWords(prompt).length;
  const imageTokens = inputImages * FAKE_IMAGE_INPUT_TOKENS;
  const outputTokens = (gptImage && prompt.includes("[empty]") ? 0 : n) * FAKE_IMAGE_OUTPUT_TOKENS;
  const count = gptImage && prompt.includes("[empty]") ? 0 : n;
  const b64 = readPaddedImageB64(prompt) ?? FAKE_IMAGE_B64;
  await sendJson(exchange, 200, {
    created: Math.floor(exchange.now() / 1000),
    ...(gptImage
      ? {
          background: "opaque",
          output_format: "png",
          quality: fields.quality ?? "high",
          size: fields.size === undefined || fields.size === "auto" ? "1024x1024" : fields.size,
        }
      : {}),
    data: Array.from({ length: count }, () =>
      responseFormat === "b64_json" ? { b64_json: b64 } : { url: `https://images.invalid/${ids.next("img_")}.png` },
    ),
    usage: {
      input_tokens: textTokens + imageTokens,
      output_tokens: outputTokens,
      total_tokens: textTokens + imageTokens + outputTokens,
      input_tokens_details: { text_tokens: textTokens, image_tokens: imageTokens },
    },
  });
}
