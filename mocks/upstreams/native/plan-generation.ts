import { createHash } from "node:crypto";
import { buildSafetyRatings } from "./build-safety-ratings.js";
import { buildVoiceCatalogue } from "./build-voice-catalogue.js";
import { computePromptUsage, type PromptUsage } from "./compute-prompt-usage.js";
import { countValueTokens } from "./count-value-tokens.js";
import { countWords, splitIntoWords } from "./count-words.js";
import { createPcmTone, SPEECH_SAMPLE_RATE } from "./create-pcm-tone.js";
import { createTinyPng } from "./create-tiny-png.js";
import { createWavFile } from "./create-wav-file.js";
import { generateValueFromSchema } from "./generate-value-from-schema.js";
import { NativeUpstreamError } from "./native-upstream-error.js";
import type {
  GenerateContentRequest,
  NativeContent,
  NativeFunctionDeclaration,
  NativePart,
  NativeTool,
} from "./native-request-types.js";
import { readLastUserText } from "./read-last-user-text.js";
import { requiresThoughtSignatures } from "./requires-thought-signatures.js";
import { signAnswerText } from "./sign-answer-text.js";
import { signFunctionCall } from "./sign-function-call.js";
import { readResponseModalities } from "./validate-generate-content-request.js";

export interface PlannedPart {
  part: Record<string, unknown>;
  tokenCount: number;
  modality: "TEXT" | "IMAGE" | "AUDIO";
  thought: boolean;
  /** Hidden thoughts cost tokens but are not returned (thinking on, includeThoughts off). */
  visible: boolean;
}

/** Everything one answer is made of; the JSON body and the SSE fragments are both cut from it. */
export interface GenerationPlan {
  prompt: PromptUsage;
  blockReason?: "SAFETY";
  parts: PlannedPart[];
  finishReason?: string;
  candidateExtras: Record<string, unknown>;
  /** Candidates 1.. when generationConfig.candidateCount asked for more than one: their visible parts. */
  alternates?: PlannedPart[][];
  /** generationConfig.responseLogprobs: each candidate carries logprobsResult, with this many top alternatives per step. */
  logprobs?: { top: number };
}

/** Tokens per generated image, whatever its size (the real API reports 1290 for a 1K image). */
export const IMAGE_OUTPUT_TOKENS = 1290;
/** Speech: 0.1 s of audio per spoken word; 25 audio tokens per second, as the real API bills. */
export const SPEECH_SAMPLES_PER_WORD = 2_400;
export const SPEECH_TOKENS_PER_SECOND = 25;

const ASPECT_RATIOS = new Set(["1:1", "2:3", "3:2", "3:4", "4:3", "4:5", "5:4", "9:16", "16:9", "21:9"]);
const IMAGE_SIZE_FACTORS = new Map([
  ["1K", 1],
  ["2K", 2],
  ["4K", 4],
]);

/**
 * The fake model. Deterministic: the same request always yields the same parts, counts and finish reason.
 * Magic user texts: `[block]` blocks the prompt, `[safety]` and `[recitation]` stop the candidate, `[search]` adds grounding,
 * `[tool:Name {"json":"args"}]` calls that declared function with those args.
 */
export function planGeneration(model: string, request: GenerateContentRequest): GenerationPlan {
  const prompt = computePromptUsage(request);
  const contents = request.contents as NativeContent[];
  const lastContent = contents[contents.length - 1]!;
  const lastUserParts = findLastUserParts(contents);
  const lastUserText = readLastUserText(contents);
  const config = request.generationConfig ?? {};
  const tools = (Array.isArray(request.tools) ? request.tools : []) as NativeTool[];

  if (lastUserText.includes("[block]")) return { prompt, blockReason: "SAFETY", parts: [], candidateExtras: {} };
  if (lastUserText.includes("[safety]")) {
    return { prompt, parts: [], finishReason: "SAFETY", candidateExtras: { safetyRatings: buildSafetyRatings(true) } };
  }
  if (lastUserText.includes("[recitation]")) {
    return {
      prompt,
      parts: [],
      finishReason: "RECITATION",
      candidateExtras: {
        safetyRatings: buildSafetyRatings(),
        citationMetadata: {
          citationSources: [{ startIndex: 0, endIndex: 42, uri: "https://example.com/recited-source", license: "" }],
        },
      },
    };
  }

  const parts: PlannedPart[] = [];
  const thinking = config.thinkingConfig;
  const thinkingOn = thinking !== undefined && thinking !== null && thinking.thinkingBudget !== 0;
  const functionResponses = lastUserParts.filter((part) => part.functionResponse).map((part) => part.functionResponse!);
  const topic =
    lastUserText ||
    (functionResponses.length > 0 ? `the result of ${String(functionResponses[0]!.name)}` : "the request");
  if (thinkingOn) {
    let thoughtText = `Thinking about ${topic}`;
    const budget = thinking.thinkingBudget;
    if (typeof budget === "number" && budget > 0) thoughtText = splitIntoWords(thoughtText).slice(0, budget).join("");
    parts.push({
      part: { text: thoughtText, thought: true },
      tokenCount: countWords(thoughtText),
      modality: "TEXT",
      thought: true,
      visible: thinking.includeThoughts === true,
    });
  }

  const modalities = readResponseModalities(request);
  if (modalities.includes("AUDIO")) {
    const voiceName = config.speechConfig?.voiceConfig?.prebuiltVoiceConfig?.voiceName;
    if (voiceName !== undefined && !isKnownVoice(String(voiceName))) {
      throw new NativeUpstreamError(
        400,
        `Voice name ${String(voiceName)} is not supported. Use a voice from GET /v1beta/voices.`,
      );
    }
    parts.push(planSpeechPart(model, lastUserText || topic));
    return { prompt, parts, finishReason: "STOP", candidateExtras: { safetyRatings: buildSafetyRatings() } };
  }

  const functionCall = planFunctionCall(
    request,
    tools,
    lastContent,
    lastUserText,
    thinkingOn || requiresThoughtSignatures(model),
  );
  if (functionCall) {
    parts.push(functionCall);
    return { prompt, parts, finishReason: "STOP", candidateExtras: { safetyRatings: buildSafetyRatings() } };
  }

  if (tools.some((tool) => tool && tool.codeExecution !== undefined)) {
    const code = `print(${JSON.stringify(lastUserText)})`;
    const output = `${lastUserText}\n`;
    parts.push({
      part: { executableCode: { language: "PYTHON", code } },
      tokenCount: countWords(code),
      modality: "TEXT",
      thought: false,
      visible: true,
    });
    parts.push({
      part: { codeExecutionResult: { outcome: "OUTCOME_OK", output } },
      tokenCount: countWords(output),
      modality: "TEXT",
      thought: false,
      visible: true,
    });
  }

  const seedText =
    functionResponses.length > 0
      ? functionResponses
          .map((response) => `Function ${String(response.name)} returned ${JSON.stringify(response.response ?? {})}`)
          .join(" ")
      : lastUserText;
  let answer = functionResponses.length > 0 ? seedText : `Echo: ${lastUserText || "(no text)"}`;
  const mimeType = typeof config.responseMimeType === "string" ? config.responseMimeType.toLowerCase() : "";
  if (mimeType === "application/json") {
    const schema = config.responseSchema ?? config.responseJsonSchema;
    answer = JSON.stringify(schema ? generateValueFromSchema(schema, seedText) : { echo: seedText });
  }
  let finishReason = "STOP";
  for (const stop of Array.isArray(config.stopSequences) ? config.stopSequences : []) {
    const at = typeof stop === "string" && stop !== "" ? answer.indexOf(stop) : -1;
    if (at >= 0) answer = answer.slice(0, at).trimEnd();
  }
  const maxOutputTokens =
    typeof config.maxOutputTokens === "number" && config.maxOutputTokens > 0 ? config.maxOutputTokens : undefined;
  const words = splitIntoWords(answer);
  if (maxOutputTokens !== undefined && words.length > maxOutputTokens) {
    answer = words.slice(0, maxOutputTokens).join("");
    finishReason = "MAX_TOKENS";
  }
  // Generation-3 text models sign their answer text too (on the last part; streams send it on an empty last part).
  const signsText = requiresThoughtSignatures(model);
  const textPart = (text: string): Record<string, unknown> =>
    signsText ? { text, thoughtSignature: signAnswerText(text) } : { text };
  if (answer !== "")
    parts.push({
      part: textPart(answer),
      tokenCount: countWords(answer),
      modality: "TEXT",
      thought: false,
      visible: true,
    });

  if (modalities.includes("IMAGE")) parts.push(planImagePart(request, lastUserText));

  const candidateExtras: Record<string, unknown> = { safetyRatings: buildSafetyRatings() };
  const plan: GenerationPlan = { prompt, parts, finishReason, candidateExtras };
  // Each further candidate says the same answer numbered, so the choices differ and their usage adds up.
  const candidateCount = typeof config.candidateCount === "number" ? config.candidateCount : 1;
  if (candidateCount > 1 && answer !== "") {
    plan.alternates = Array.from({ length: candidateCount - 1 }, (_, offset) => {
      const text = `(${offset + 2}) ${answer}`;
      return [
        {
          part: textPart(text),
          tokenCount: countWords(text),
          modality: "TEXT" as const,
          thought: false,
          visible: true,
        },
      ];
    });
  }
  if (config.responseLogprobs === true)
    plan.logprobs = { top: typeof config.logprobs === "number" ? config.logprobs : 0 };
  const searchRequested =
    lastUserText.includes("[search]") ||
    tools.some((tool) => tool && (tool.nativeSearch !== undefined || tool.googleSearch !== undefined));
  if (searchRequested) candidateExtras.groundingMetadata = buildGroundingMetadata(lastUserText, answer);
  return plan;
}

const VOICE_NAMES = new Set(
  buildVoiceCatalogue().flatMap((voice) => [voice.id.toLowerCase(), voice.display_name.toLowerCase()]),
);

/** Voices are named by catalogue id (`en-US-Kore`) or by speaker name (`Kore`), case-insensitively. */
function isKnownVoice(voiceName: string): boolean {
  return VOICE_NAMES.has(voiceName.toLowerCase());
}

function findLastUserParts(contents: NativeContent[]): NativePart[] {
  for (let index = contents.length - 1; index >= 0; index -= 1) {
    const content = contents[index]!;
    if (content.role === undefined || content.role === "user" || content.role === "function")
      return content.parts as NativePart[];
  }
  return [];
}

function planFunctionCall(
  request: GenerateContentRequest,
  tools: NativeTool[],
  lastContent: NativeContent,
  lastUserText: string,
  signs: boolean,
): PlannedPart | undefined {
  const declarations = tools.flatMap((tool) =>
    tool && Array.isArray(tool.functionDeclarations) ? tool.functionDeclarations : [],
  );
  const callingConfig = request.toolConfig?.functionCallingConfig;
  const mode = typeof callingConfig?.mode === "string" ? callingConfig.mode : "AUTO";
  const lastIsUserTurn = lastContent.role === undefined || lastContent.role === "user";
  const answersFunction = (lastContent.parts as NativePart[]).some((part) => part.functionResponse);
  if (declarations.length === 0 || mode === "NONE" || !lastIsUserTurn || answersFunction) return undefined;
  const allowed = Array.isArray(callingConfig?.allowedFunctionNames)
    ? callingConfig.allowedFunctionNames.map(String)
    : [];
  const scripted = readScriptedCall(lastUserText, declarations);
  const declaration: NativeFunctionDeclaration =
    scripted?.declaration ??
    declarations.find((candidate) => allowed.includes(String(candidate.name))) ??
    declarations[0]!;
  const name = String(declaration.name);
  const args =
    scripted?.args ??
    generateValueFromSchema(
      declaration.parameters ?? declaration.parametersJsonSchema ?? { type: "object" },
      lastUserText,
    );
  const part: Record<string, unknown> = { functionCall: { name, args } };
  // Thinking models sign their function calls; clients must send the signature back with the call.
  if (signs) part.thoughtSignature = signFunctionCall(name, lastUserText);
  return { part, tokenCount: 1 + countValueTokens(args), modality: "TEXT", thought: false, visible: true };
}

function planImagePart(request: GenerateContentRequest, lastUserText: string): PlannedPart {
  const imageConfig = request.generationConfig?.imageConfig ?? {};
  const aspectRatio = imageConfig.aspectRatio === undefined ? "1:1" : String(imageConfig.aspectRatio);
  if (!ASPECT_RATIOS.has(aspectRatio)) throw new NativeUpstreamError(400, `Unsupported aspect ratio: ${aspectRatio}`);
  const imageSize = imageConfig.imageSize === undefined ? "1K" : String(imageConfig.imageSize).toUpperCase();
  const factor = IMAGE_SIZE_FACTORS.get(imageSize);
  if (factor === undefined)
    throw new NativeUpstreamError(400, `Unsupported image size: ${String(imageConfig.imageSize)}`);
  const outputMimeType = imageConfig.imageOutputOptions?.mimeType ?? "image/png";
  if (outputMimeType !== "image/png") {
    throw new NativeUpstreamError(
      400,
      `Unsupported image output mime type: ${String(outputMimeType)} (the fake produces image/png only)`,
    );
  }
  const [widthRatio, heightRatio] = aspectRatio.split(":").map(Number) as [number, number];
  const digest = createHash("sha256").update(lastUserText).digest();
  const png = createTinyPng(widthRatio * factor, heightRatio * factor, [digest[0]!, digest[1]!, digest[2]!]);
  return {
    part: { inlineData: { mimeType: "image/png", data: png.toString("base64") } },
    tokenCount: IMAGE_OUTPUT_TOKENS,
    modality: "IMAGE",
    thought: false,
    visible: true,
  };
}

function planSpeechPart(model: string, spokenText: string): PlannedPart {
  const sampleCount = Math.max(1, countWords(spokenText)) * SPEECH_SAMPLES_PER_WORD;
  const pcm = createPcmTone(sampleCount);
  const tokenCount = Math.max(1, Math.ceil((sampleCount / SPEECH_SAMPLE_RATE) * SPEECH_TOKENS_PER_SECOND));
  // Only the newest speech model wraps its audio; the others return raw PCM and the rate in the MIME type.
  const inlineData =
    model === "gmx-3.8-flash-tts"
      ? { mimeType: "audio/wav", data: createWavFile(pcm, SPEECH_SAMPLE_RATE).toString("base64") }
      : { mimeType: `audio/l16;codec=pcm;rate=${SPEECH_SAMPLE_RATE}`, data: pcm.toString("base64") };
  return { part: { inlineData }, tokenCount, modality: "AUDIO", thought: false, visible: true };
}

function buildGroundingMetadata(query: string, answer: string): Record<string, unknown> {
  const searchQuery = query.replace("[search]", "").trim() || query;
  return {
    webSearchQueries: [searchQuery],
    searchEntryPoint: { renderedContent: `<div class="search-entry-point">${escapeHtml(searchQuery)}</div>` },
    groundingChunks: [{ web: { uri: "https://search.example.com/result/1", title: "example.com" } }],
    groundingSupports: [
      { segment: { startIndex: 0, endIndex: Buffer.byteLength(answer), text: answer }, groundingChunkIndices: [0] },
    ],
  };
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** `[tool:Name {"json": "args"}]` in the user's text scripts the call, as in the other fakes (an agent's tool loop). */
const scriptedCall = /\[tool:([A-Za-z0-9_-]+) (\{.*?\})\]/;

function readScriptedCall(
  userText: string,
  declarations: readonly NativeFunctionDeclaration[],
): { declaration: NativeFunctionDeclaration; args: Record<string, unknown> } | undefined {
  const match = scriptedCall.exec(userText);
  const declaration = declarations.find((candidate) => String(candidate.name) === match?.[1]);
  if (!match || !declaration) return undefined;
  try {
    return { declaration, args: JSON.parse(match[2]!) as Record<string, unknown> };
  } catch {
    return undefined;
  }
}
