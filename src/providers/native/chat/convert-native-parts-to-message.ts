import type { components as NativeComponents } from "../../../../generated/types/native.js";
import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import { attachThoughtSignature } from "../../shared-translations/thought-signatures.js";

type Part = NativeComponents["schemas"]["Part"];
type ChatCompletionMessageToolCall = OpenaiComponents["schemas"]["ChatCompletionMessageToolCall"];

export interface NativePartsConversionOptions {
  /** thinkingConfig.includeThoughts of the request: thought parts become reasoning_content, otherwise they are dropped. */
  includeThoughts: boolean;
  /** Id of the call at this position when the upstream gave none (see createToolCallId). */
  createToolCallId(callIndex: number): string;
  /** Calls already emitted for this choice (a stream converts one fragment at a time). */
  firstCallIndex?: number;
}

/** The message fields of some native parts; null when no part produced that field. */
export interface ConvertedNativeParts {
  content: string | null;
  reasoning_content: string | null;
  tool_calls: ChatCompletionMessageToolCall[];
  /**
   * The thoughtSignature a text part (not a thought) carried, often the last part and sometimes one with empty text;
   * the last one when several did. Chat hands it out as `extra_content`, Responses as a reasoning item.
   */
  textThoughtSignature: string | null;
}

/**
 * Native parts → the fields of an assistant message. Each part is judged on its own (a fragment may mix thoughts
 * and answer text). Every piece of content is self-delimiting (code blocks bring their own line breaks), so the
 * content of a stream's fragments concatenated equals the content of the same parts converted at once.
 */
export function convertNativePartsToMessage(
  parts: readonly Part[] | undefined,
  options: NativePartsConversionOptions,
): ConvertedNativeParts {
  let content: string | null = null;
  let reasoning: string | null = null;
  const toolCalls: ChatCompletionMessageToolCall[] = [];
  let textThoughtSignature: string | null = null;
  const append = (text: string) => {
    content = (content ?? "") + text;
  };

  for (const part of parts ?? []) {
    if (part.thought === true) {
      // A thought part may carry only a signature; its text, if any, is never answer text.
      if (options.includeThoughts && typeof part.text === "string") reasoning = (reasoning ?? "") + part.text;
      continue;
    }
    if (typeof part.text === "string") {
      append(part.text);
      if (part.thoughtSignature) textThoughtSignature = part.thoughtSignature;
    } else if (part.functionCall) {
      const callIndex = (options.firstCallIndex ?? 0) + toolCalls.length;
      // The signature rides in the id, which the client echoes in its next turn (see thoughtSignatureSeparator).
      toolCalls.push({
        id: attachThoughtSignature(part.functionCall.id || options.createToolCallId(callIndex), part.thoughtSignature),
        type: "function",
        function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
      });
    } else if (part.executableCode) {
      const language =
        part.executableCode.language === "LANGUAGE_UNSPECIFIED" ? "" : part.executableCode.language.toLowerCase();
      append(formatCodeBlock(part.executableCode.code, language));
    } else if (part.codeExecutionResult) {
      const { outcome, output = "" } = part.codeExecutionResult;
      const preface =
        outcome === "OUTCOME_OK" || outcome === "OUTCOME_UNSPECIFIED" ? "" : `\nExecution ended with ${outcome}:`;
      append(preface + formatCodeBlock(output, "output"));
    } else if (part.inlineData) {
      const mimeType = part.inlineData.mimeType.replaceAll(/\s/g, "");
      append(formatMediaLink(mimeType, `data:${mimeType};base64,${part.inlineData.data}`));
    } else if (part.fileData) {
      const mimeType = (part.fileData.mimeType ?? "application/octet-stream").replaceAll(/\s/g, "");
      append(formatMediaLink(mimeType, part.fileData.fileUri.replaceAll(/[\s()]/g, percentEncode)));
    }
    // functionResponse and speech metadata never appear in answers.
  }
  return { content, reasoning_content: reasoning, tool_calls: toolCalls, textThoughtSignature };
}

/** A fenced block whose fence is longer than any backtick run inside, so code containing ``` cannot close it early. */
function formatCodeBlock(code: string, label: string): string {
  const longestRun = Math.max(0, ...[...code.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  // Program output usually ends with a newline of its own; a second one would show as an empty last line.
  return `\n${fence}${label}\n${code.replace(/\n$/, "")}\n${fence}\n`;
}

/** Images render inline; other media (audio, PDF, video) become links the client can open or save. */
function formatMediaLink(mimeType: string, url: string): string {
  return mimeType.toLowerCase().startsWith("image/") ? `![image](${url})` : `[${mimeType}](${url})`;
}

/** Spaces and parentheses would end a markdown link target early. */
function percentEncode(character: string): string {
  return `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;
}
