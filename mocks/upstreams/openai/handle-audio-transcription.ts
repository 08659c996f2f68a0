import type { FakeExchange } from "../shared/fake-exchange.js";
import { sendBody } from "../shared/send-body.js";
import { formatTranscription, type TranscriptionTask } from "./format-transcription.js";
import { OpenaiRequestError } from "./openai-request-error.js";

/** The fake assumes 16 kHz 16-bit mono when it turns an upload's size into a duration. */
const bytesPerSecond = 32_000;

async function readMultipart(exchange: FakeExchange): Promise<FormData> {
  const contentType = exchange.request.headers["content-type"] ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) {
    throw new OpenaiRequestError(400, "Invalid Content-Type header (expected multipart/form-data).");
  }
  // The platform's own multipart parser (undici), so the fake needs no dependency of its own.
  const form = new Request("http://fake.invalid/", {
    method: "POST",
    headers: { "content-type": contentType },
    body: exchange.body.raw,
  });
  try {
    return await form.formData();
  } catch {
    throw new OpenaiRequestError(400, "Could not parse multipart form");
  }
}

/**
 * POST /v1/audio/transcriptions and /v1/audio/translations. The text is deterministic:
 * "Transcription of <filename> (<bytes> bytes)." (or "Translation of ...").
 */
export async function handleAudioTranscription(exchange: FakeExchange, task: TranscriptionTask): Promise<void> {
  const form = await readMultipart(exchange);
  const model = form.get("model");
  if (typeof model !== "string" || model.length === 0) {
    throw new OpenaiRequestError(400, "you must provide a model parameter");
  }
  const file = form.get("file");
  if (file === null || typeof file === "string") {
    throw new OpenaiRequestError(
      400,
      "Missing required parameter: 'file'.",
      "invalid_request_error",
      "file",
      "missing_required_parameter",
    );
  }
  const size = file.size;
  const durationSeconds = Math.max(1, Math.ceil(size / bytesPerSecond));
  const text = `${task === "transcribe" ? "Transcription" : "Translation"} of ${file.name} (${size} bytes).`;
  const responseFormat = form.get("response_format") ?? "json";
  const formatted = formatTranscription(task, text, durationSeconds, String(responseFormat));
  if (formatted === null) {
    throw new OpenaiRequestError(
      400,
      `Invalid value: '${String(responseFormat)}'. Supported values are: 'json', 'text', 'srt', 'verbose_json', and 'vtt'.`,
      "invalid_request_error",
      "response_format",
      "invalid_value",
    );
  }
  await sendBody(exchange, 200, formatted.contentType, formatted.body);
}
