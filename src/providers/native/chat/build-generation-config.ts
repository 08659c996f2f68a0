import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import { convertResponseFormat } from "./convert-response-format.js";

type ChatRequest = OpenaiComponents["schemas"]["CreateChatCompletionRequest"];
type GenerationConfig = NativeComponents["schemas"]["GenerationConfig"];

const maxStopSequences = 5;

/**
 * The sampling and output fields of a chat request → generationConfig (thinking is resolved separately because it
 * draws on the model name and extra_body as well). Null means "not set" in OpenAI clients and is left out.
 * - max_completion_tokens wins over max_tokens when both are sent (it is the newer name of the same limit).
 * - stop: at most 5 sequences go upstream, extras are dropped and reported.
 * - n only becomes candidateCount when greater than 1, so n: 1 leaves the upstream default alone.
 * - modalities are upper-cased, the native API's spelling.
 * - audio is passed through unchanged as speechConfig, as the product documents say; it is the client's job to use
 *   native fields.
 */
export function buildGenerationConfig(request: ChatRequest, warnings: string[]): GenerationConfig {
  const config: GenerationConfig = {};
  if (isNumber(request.temperature)) config.temperature = request.temperature;
  if (isNumber(request.top_p)) config.topP = request.top_p;
  if (isNumber(request.top_k)) config.topK = request.top_k;

  if (isNumber(request.max_completion_tokens)) {
    config.maxOutputTokens = request.max_completion_tokens;
    if (isNumber(request.max_tokens) && request.max_tokens !== request.max_completion_tokens) {
      warnings.push("Both max_tokens and max_completion_tokens were sent; max_completion_tokens was used.");
    }
  } else if (isNumber(request.max_tokens)) {
    config.maxOutputTokens = request.max_tokens;
  }

  if (isNumber(request.seed)) config.seed = request.seed;

  const stop = typeof request.stop === "string" ? [request.stop] : (request.stop ?? []);
  if (stop.length > maxStopSequences) {
    warnings.push(`stop has ${stop.length} sequences; only the first ${maxStopSequences} were sent.`);
  }
  if (stop.length > 0) config.stopSequences = stop.slice(0, maxStopSequences);

  if (isNumber(request.frequency_penalty)) config.frequencyPenalty = request.frequency_penalty;
  if (isNumber(request.presence_penalty)) config.presencePenalty = request.presence_penalty;
  if (isNumber(request.n) && request.n > 1) config.candidateCount = request.n;
  if (typeof request.logprobs === "boolean") config.responseLogprobs = request.logprobs;
  if (isNumber(request.top_logprobs)) config.logprobs = request.top_logprobs;
  if (Array.isArray(request.modalities) && request.modalities.length > 0) {
    config.responseModalities = request.modalities.map((modality) => modality.toUpperCase());
  }
  if (request.audio !== undefined && request.audio !== null) {
    config.speechConfig = request.audio as GenerationConfig["speechConfig"];
  }
  return { ...config, ...convertResponseFormat(request.response_format, warnings) };
}

function isNumber(value: number | null | undefined): value is number {
  return typeof value === "number";
}
