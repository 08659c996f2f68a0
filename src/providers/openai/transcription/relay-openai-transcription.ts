import { FormData } from "undici";
import type { TranscriptionCall } from "../../contract/transcription-call.js";
import type { components } from "../../../../generated/types/openai.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import { openaiDialect, type OpenaiDialect } from "../openai-dialect.js";
import { formatTranscript, type TranscriptFormat } from "./format-transcript.js";

type VerboseTranscript = components["schemas"]["TranscriptionVerboseResponse"];

/**
 * Transcription or translation on an OpenAI-compatible channel. The multipart form is rebuilt for the upstream with
 * the mapped model and `response_format: verbose_json`, whose `duration` is what the request is billed by (priced
 * with `per_second`); the client's format is then rendered from that transcript (format-transcript.ts).
 */
export async function relayOpenaiTranscription(
  call: TranscriptionCall,
  input: RelayAttemptInput,
  dialect: OpenaiDialect = openaiDialect,
): Promise<void> {
  const form = new FormData();
  for (const [name, value] of Object.entries(call.fields)) {
    // `file` also appears among the fields: the validator puts a placeholder there to validate the upload.
    if (name !== "model" && name !== "response_format" && name !== "file") form.append(name, value);
  }
  form.append("model", input.attempt.upstreamModel);
  form.append("response_format", "verbose_json");
  form.append("file", new Blob([call.file.buffer], { type: call.file.mimetype }), call.file.originalname);

  const transcript = await sendUpstreamJsonRequest<VerboseTranscript>(input.attempt, {
    method: "POST",
    path: dialect.path(`audio/${call.task}`, input.attempt),
    headers: input.upstreamHeaders({ jsonBody: false }),
    body: form,
    signal: input.signal,
  });
  input.observed.usage = {
    promptTokens: 0,
    completionTokens: 0,
    cachedTokens: 0,
    reasoningTokens: 0,
    durationSeconds: Math.ceil(transcript.duration ?? 0),
  };
  const formatted = formatTranscript(transcript, (call.fields.response_format ?? "json") as TranscriptFormat);
  if (formatted.kind === "json") input.deliver(formatted.body);
  else input.deliverBytes(formatted.contentType, Buffer.from(formatted.text));
}
