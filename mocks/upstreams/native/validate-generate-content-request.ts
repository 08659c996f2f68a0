import { NativeUpstreamError } from "./native-upstream-error.js";
import type { GenerateContentRequest, NativeContent } from "./native-request-types.js";
import { validateThoughtSignatures } from "./validate-thought-signatures.js";

const VALID_MODALITIES = new Set(["TEXT", "IMAGE", "AUDIO"]);
const VALID_CALLING_MODES = new Set(["AUTO", "ANY", "NONE", "VALIDATED"]);

/** Speech models answer only audio; the preview one also refuses conversations. */
export function isSpeechModel(model: string): boolean {
  return /-tts(-|$)/.test(model);
}

export const SINGLE_TURN_SPEECH_MODEL = "gmx-3.1-flash-tts-preview";

/** Rejects what the native API rejects, with its status and a message naming the field. */
export function validateGenerateContentRequest(model: string, body: unknown): GenerateContentRequest {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw invalid("Invalid JSON payload received. Expected an object at the top level.");
  }
  const request = body as GenerateContentRequest;
  if (!Array.isArray(request.contents) || request.contents.length === 0) throw invalid("contents is required");
  (request.contents as unknown[]).forEach((content, index) => {
    validateContent(content, `contents[${index}]`);
  });
  if (request.systemInstruction !== undefined) {
    const instruction = request.systemInstruction as NativeContent;
    if (instruction === null || typeof instruction !== "object" || !Array.isArray(instruction.parts)) {
      throw invalid("systemInstruction.parts must be an array");
    }
  }
  validateGenerationConfig(request);
  validateThoughtSignatures(model, request.contents as NativeContent[]);
  const mode = request.toolConfig?.functionCallingConfig?.mode;
  if (mode !== undefined && (typeof mode !== "string" || !VALID_CALLING_MODES.has(mode))) {
    throw invalid(`Invalid value at 'tool_config.function_calling_config.mode', "${String(mode)}"`);
  }
  if (request.tools !== undefined && !Array.isArray(request.tools)) throw invalid("tools must be an array");

  const modalities = readResponseModalities(request);
  const wantsAudio = modalities.includes("AUDIO");
  if (isSpeechModel(model) !== wantsAudio) {
    const asked = modalities.length > 0 ? modalities.join(", ") : "TEXT";
    throw invalid(`The requested combination of response modalities (${asked}) is not supported by the model.`);
  }
  if (model === SINGLE_TURN_SPEECH_MODEL && request.contents.length > 1) {
    throw invalid("multi-turn chat not enabled for this model");
  }
  return request;
}

/** The requested output modalities, upper-cased (clients send either case). */
export function readResponseModalities(request: GenerateContentRequest): string[] {
  const modalities = request.generationConfig?.responseModalities;
  return Array.isArray(modalities) ? modalities.map((modality) => String(modality).toUpperCase()) : [];
}

function validateContent(content: unknown, where: string): void {
  if (content === null || typeof content !== "object") throw invalid(`${where} must be an object`);
  const { role, parts } = content as NativeContent;
  if (role !== undefined && role !== "user" && role !== "model" && role !== "function") {
    throw invalid("Please use a valid role: user, model.");
  }
  if (!Array.isArray(parts) || parts.length === 0) throw invalid(`${where}.parts must not be empty`);
  parts.forEach((part, index) => {
    if (part === null || typeof part !== "object" || Object.keys(part).length === 0) {
      throw invalid(`${where}.parts[${index}] must contain initialized data`);
    }
  });
}

function validateGenerationConfig(request: GenerateContentRequest): void {
  const config = request.generationConfig;
  if (config === undefined) return;
  if (config === null || typeof config !== "object") throw invalid("generationConfig must be an object");
  const { temperature, maxOutputTokens, responseModalities, thinkingConfig, stopSequences } = config;
  if (temperature !== undefined && (typeof temperature !== "number" || temperature < 0 || temperature > 2)) {
    throw invalid("generationConfig.temperature must be between 0 and 2");
  }
  if (maxOutputTokens !== undefined && (!Number.isInteger(maxOutputTokens) || (maxOutputTokens as number) < 0)) {
    throw invalid("generationConfig.maxOutputTokens must be a non-negative integer");
  }
  if (stopSequences !== undefined && (!Array.isArray(stopSequences) || stopSequences.length > 5)) {
    throw invalid("generationConfig.stopSequences must be an array of at most 5 strings");
  }
  if (responseModalities !== undefined) {
    if (!Array.isArray(responseModalities)) throw invalid("generationConfig.responseModalities must be an array");
    for (const modality of responseModalities) {
      if (!VALID_MODALITIES.has(String(modality).toUpperCase())) {
        throw invalid(`Invalid value at 'generation_config.response_modalities', "${String(modality)}"`);
      }
    }
  }
  const { candidateCount, logprobs } = config;
  if (
    candidateCount !== undefined &&
    (!Number.isInteger(candidateCount) || (candidateCount as number) < 1 || (candidateCount as number) > 8)
  ) {
    throw invalid("generationConfig.candidateCount must be an integer between 1 and 8");
  }
  if (
    logprobs !== undefined &&
    (!Number.isInteger(logprobs) || (logprobs as number) < 0 || (logprobs as number) > 20)
  ) {
    throw invalid("generationConfig.logprobs must be an integer between 0 and 20");
  }
  const budget = thinkingConfig?.thinkingBudget;
  if (budget !== undefined && (!Number.isInteger(budget) || (budget as number) < -1)) {
    throw invalid("generationConfig.thinkingConfig.thinkingBudget must be an integer of at least -1");
  }
}

function invalid(message: string): NativeUpstreamError {
  return new NativeUpstreamError(400, message);
}
