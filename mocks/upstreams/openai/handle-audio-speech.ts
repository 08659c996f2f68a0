import type { FakeExchange } from "../shared/fake-exchange.js";
import { sendBody } from "../shared/send-body.js";
import { splitWords } from "../shared/split-words.js";
import { createFakeAudio, speechContentTypes } from "./create-fake-audio.js";
import { OpenaiRequestError } from "./openai-request-error.js";
import { readJsonObjectBody } from "./read-json-object-body.js";
import { requireModel } from "./require-model.js";

const voices = ["alloy", "ash", "ballad", "coral", "echo", "fable", "onyx", "nova", "sage", "shimmer", "verse"];
const maximumInputLength = 4096;

function invalidValue(param: string, value: unknown, supported: string[]): OpenaiRequestError {
  const list = supported.map((item) => `'${item}'`);
  const listed = `${list.slice(0, -1).join(", ")}, and ${list[list.length - 1]}`;
  return new OpenaiRequestError(
    400,
    `Invalid value: '${String(value)}'. Supported values are: ${listed}.`,
    "invalid_request_error",
    param,
    "invalid_value",
  );
}

/** POST /v1/audio/speech: audio bytes with the content type of `response_format` (default mp3). */
export async function handleAudioSpeech(exchange: FakeExchange): Promise<void> {
  const body = readJsonObjectBody(exchange);
  requireModel(body);
  const input = body.input;
  if (typeof input !== "string" || input.length === 0) {
    throw new OpenaiRequestError(
      400,
      "Missing required parameter: 'input'.",
      "invalid_request_error",
      "input",
      "missing_required_parameter",
    );
  }
  if (input.length > maximumInputLength) {
    throw new OpenaiRequestError(
      400,
      `Invalid 'input': string too long. Expected a string with maximum length ${maximumInputLength}, but got a string with length ${input.length} instead.`,
      "invalid_request_error",
      "input",
      "string_above_max_length",
    );
  }
  if (body.voice === undefined) {
    throw new OpenaiRequestError(
      400,
      "Missing required parameter: 'voice'.",
      "invalid_request_error",
      "voice",
      "missing_required_parameter",
    );
  }
  if (typeof body.voice !== "string" || !voices.includes(body.voice)) throw invalidValue("voice", body.voice, voices);
  const format = body.response_format ?? "mp3";
  const contentType = typeof format === "string" ? speechContentTypes[format] : undefined;
  if (contentType === undefined) throw invalidValue("response_format", format, Object.keys(speechContentTypes));
  await sendBody(exchange, 200, contentType, createFakeAudio(splitWords(input).length, format as string));
}
