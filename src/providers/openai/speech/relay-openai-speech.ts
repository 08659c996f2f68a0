import type { Response } from "express";
import type { components } from "../../../../generated/types/openai.js";
import { withoutInjectedDefaults } from "../../../http/client-body-fields.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { openaiDialect, type OpenaiDialect } from "../openai-dialect.js";
import { sendUpstreamBufferedRequest } from "../../../upstream/send-upstream-buffered-request.js";

type SpeechRequest = components["schemas"]["CreateSpeechRequest"];

/**
 * Speech synthesis on an OpenAI-compatible channel: the audio bytes pass through with the upstream's content type,
 * read whole first (an answer that breaks off can still go to another channel).
 * Speech is metered in input characters (what speech models are priced by): the model's `input` price is read as
 * USD per 1M characters.
 */
export async function relayOpenaiSpeech(
  request: SpeechRequest,
  response: Response,
  input: RelayAttemptInput,
  dialect: OpenaiDialect = openaiDialect,
): Promise<void> {
  const upstream = await sendUpstreamBufferedRequest(input.attempt, {
    method: "POST",
    path: dialect.path("audio/speech", input.attempt),
    headers: input.upstreamHeaders({ accept: "audio/*" }),
    body: JSON.stringify({ ...withoutInjectedDefaults(request, response), model: input.attempt.upstreamModel }),
    signal: input.signal,
  });
  const contentType = upstream.headers["content-type"];
  input.observed.usage = {
    promptTokens: [...request.input].length,
    completionTokens: 0,
    cachedTokens: 0,
    reasoningTokens: 0,
  };
  input.deliverBytes(typeof contentType === "string" ? contentType : "application/octet-stream", upstream.body);
}
