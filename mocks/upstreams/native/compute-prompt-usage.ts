import { countValueTokens } from "./count-value-tokens.js";
import { countWords } from "./count-words.js";
import type { GenerateContentRequest, NativeContent, NativePart } from "./native-request-types.js";

export type Modality = "TEXT" | "IMAGE" | "AUDIO" | "VIDEO" | "DOCUMENT";

export interface PromptUsage {
  promptTokenCount: number;
  promptTokensDetails: Array<{ modality: Modality; tokenCount: number }>;
  cachedContentTokenCount?: number;
}

/** What one inline or file media part costs, whatever its size (the real API charges 258 per image tile). */
export const MEDIA_PART_TOKENS = 258;

/**
 * The documented, deterministic prompt count: 2 per content (system instruction included) plus, per part,
 * the words of text, 1 + value tokens of function calls and responses, the words of code and code output,
 * and MEDIA_PART_TOKENS per inlineData/fileData part (counted under its modality).
 * With cachedContent, half the prompt (rounded down) is reported as cached, as the real API reports the cached
 * prefix inside promptTokenCount.
 */
export function computePromptUsage(request: GenerateContentRequest): PromptUsage {
  const byModality = new Map<Modality, number>();
  const add = (modality: Modality, tokens: number) =>
    byModality.set(modality, (byModality.get(modality) ?? 0) + tokens);
  const contents: NativeContent[] = [];
  if (request.systemInstruction && typeof request.systemInstruction === "object")
    contents.push(request.systemInstruction as NativeContent);
  if (Array.isArray(request.contents)) contents.push(...(request.contents as NativeContent[]));
  for (const content of contents) {
    add("TEXT", 2);
    const parts = Array.isArray(content.parts) ? (content.parts as NativePart[]) : [];
    for (const part of parts) {
      const [modality, tokens] = countPartTokens(part);
      add(modality, tokens);
    }
  }
  const promptTokensDetails = [...byModality.entries()]
    .filter(([, tokenCount]) => tokenCount > 0)
    .map(([modality, tokenCount]) => ({ modality, tokenCount }));
  const promptTokenCount = promptTokensDetails.reduce((sum, detail) => sum + detail.tokenCount, 0);
  const usage: PromptUsage = { promptTokenCount, promptTokensDetails };
  if (typeof request.cachedContent === "string" && request.cachedContent !== "") {
    usage.cachedContentTokenCount = Math.floor(promptTokenCount / 2);
  }
  return usage;
}

function countPartTokens(part: NativePart): [Modality, number] {
  if (typeof part.text === "string") return ["TEXT", countWords(part.text)];
  if (part.functionCall) return ["TEXT", 1 + countValueTokens(part.functionCall.args ?? {})];
  if (part.functionResponse) return ["TEXT", 1 + countValueTokens(part.functionResponse.response ?? {})];
  if (part.executableCode) return ["TEXT", countWords(String(part.executableCode.code ?? ""))];
  if (part.codeExecutionResult) return ["TEXT", countWords(String(part.codeExecutionResult.output ?? ""))];
  const media = part.inlineData ?? part.fileData;
  if (media) return [mapMimeTypeToModality(String(media.mimeType ?? "")), MEDIA_PART_TOKENS];
  return ["TEXT", 0];
}

function mapMimeTypeToModality(mimeType: string): Modality {
  const family = mimeType.toLowerCase().split("/")[0];
  switch (family) {
    case "image":
      return "IMAGE";
    case "audio":
      return "AUDIO";
    case "video":
      return "VIDEO";
    case "text":
      return "TEXT";
    default:
      return "DOCUMENT";
  }
}
