import type { Request } from "express";
import type { operations } from "../../../generated/types/openai.js";
import { InvalidRequestError } from "../../errors/gateway-error.js";
import type { GatewayContext } from "../../gateway-context.js";
import type { OperationHandler } from "../../http/operation-handler.js";
import type { JsonRequestBody } from "../../http/operation-types.js";
import type { TranscriptionCall } from "../../providers/contract/transcription-call.js";
import { runRelay } from "../../relay/run-relay.js";

type UploadedFile = TranscriptionCall["file"] & { fieldname: string };

/** The multipart form as the validator's uploader left it: text fields in the body, the audio in `files`. */
function readTranscriptionForm(request: Request): Omit<TranscriptionCall, "task"> {
  const file = ((request.files as UploadedFile[] | undefined) ?? []).find((upload) => upload.fieldname === "file");
  if (!file)
    throw new InvalidRequestError("file is required: send the audio as a multipart file part named file.", {
      param: "file",
    });
  const fields = Object.fromEntries(
    Object.entries((request.body ?? {}) as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
  return { fields, file };
}

/**
 * OpenAI-style audio through OpenAI-compatible channels: speech metered in input characters, transcription and
 * translation in seconds of audio (the upstream's reported duration).
 */
export function createAudioHandlers(
  context: GatewayContext,
): Record<"createSpeech" | "createTranscription" | "createTranslation", OperationHandler> {
  const transcribe = (task: TranscriptionCall["task"]): OperationHandler =>
    async function relayTranscription(request, response) {
      const form = readTranscriptionForm(request);
      await runRelay(context, request, response, {
        capability: "transcription",
        input: { task, ...form },
        model: form.fields.model ?? "",
        isStream: false,
        promptTokenEstimate: 0,
        maxOutputTokens: 0,
      });
    };
  return {
    createTranscription: transcribe("transcriptions"),
    createTranslation: transcribe("translations"),
    async createSpeech(request, response) {
      const body = request.body as JsonRequestBody<operations["createSpeech"]>;
      await runRelay(context, request, response, {
        capability: "speech",
        input: body,
        model: body.model,
        isStream: false,
        promptTokenEstimate: [...body.input].length,
        maxOutputTokens: 0,
      });
    },
  };
}
