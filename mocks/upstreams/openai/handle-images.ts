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

/**
 * POST /v1/images/generations and /v1/images/edits (JSON, and multipart for edits). Deterministic: `n` copies of
 * one tiny PNG as `b64_json`, or `https://images.invalid/<id>.png` URLs for `response_format: url` (the default);
 * usage counts prompt words plus FAKE_IMAGE_INPUT_TOKENS per input image in, FAKE_IMAGE_OUTPUT_TOKENS per image out.
 * The `img-d-` form (input.messages + parameters) is accepted too.
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
  const responseFormat = fields.response_format ?? "url";
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
  const outputTokens = n * FAKE_IMAGE_OUTPUT_TOKENS;
  await sendJson(exchange, 200, {
    created: Math.floor(exchange.now() / 1000),
    data: Array.from({ length: n }, () =>
      responseFormat === "b64_json"
        ? { b64_json: FAKE_IMAGE_B64 }
        : { url: `https://images.invalid/${ids.next("img_")}.png` },
    ),
    usage: {
      input_tokens: textTokens + imageTokens,
      output_tokens: outputTokens,
      total_tokens: textTokens + imageTokens + outputTokens,
      input_tokens_details: { text_tokens: textTokens, image_tokens: imageTokens },
    },
  });
}
