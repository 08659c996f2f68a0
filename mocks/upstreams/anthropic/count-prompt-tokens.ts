import { createHash } from "node:crypto";
import { splitWords } from "../shared/split-words.js";
import type { FakeContentBlock, FakeMessageRequest } from "./fake-anthropic-types.js";

/** An image or a document counts this many tokens whatever its size. */
export const MEDIA_BLOCK_TOKENS = 100;
/** Per-message framing. */
export const MESSAGE_TOKENS = 3;

export interface PromptCount {
  total: number;
  /** Tokens up to and including the last block marked `cache_control` (0 without one). */
  cacheablePrefix: number;
  /** Identifies the cacheable prefix: the same prefix sent again is a cache read. */
  prefixKey: string | undefined;
}

/**
 * The fake's prompt tokens: words of every text, tool definition and tool input, a flat count per image or
 * document, MESSAGE_TOKENS per message. Anthropic caches the prompt prefix in the order tools, system, messages;
 * the prefix ends at the last `cache_control` breakpoint.
 */
export function countPromptTokens(request: FakeMessageRequest): PromptCount {
  let total = 0;
  let cacheablePrefix = 0;
  const prefix = createHash("sha256");
  let prefixKey: string | undefined;
  const mark = (cacheControl: unknown, material: unknown) => {
    prefix.update(JSON.stringify(material));
    if (cacheControl !== undefined && cacheControl !== null) {
      cacheablePrefix = total;
      prefixKey = prefix.copy().digest("hex");
    }
  };
  for (const tool of request.tools ?? []) {
    total += splitWords(`${tool.name} ${tool.description ?? ""} ${JSON.stringify(tool.input_schema ?? {})}`).length;
    mark(tool.cache_control, tool);
  }
  const system = request.system;
  if (typeof system === "string") {
    total += splitWords(system).length;
    mark(undefined, system);
  } else {
    for (const block of system ?? []) {
      total += countBlockTokens(block);
      mark(block.cache_control, block);
    }
  }
  for (const message of request.messages) {
    total += MESSAGE_TOKENS;
    if (typeof message.content === "string") {
      total += splitWords(message.content).length;
      mark(undefined, message);
      continue;
    }
    for (const block of message.content) {
      total += countBlockTokens(block);
      mark(block.cache_control, block);
    }
  }
  return { total, cacheablePrefix, prefixKey };
}

export function countBlockTokens(block: FakeContentBlock): number {
  switch (block.type) {
    case "text":
      return splitWords(block.text ?? "").length;
    case "thinking":
      return splitWords(block.thinking ?? "").length + 1;
    case "redacted_thinking":
      return 1;
    case "image":
    case "document":
      return MEDIA_BLOCK_TOKENS;
    case "tool_use":
      return 1 + splitWords(JSON.stringify(block.input ?? {})).length;
    case "tool_result":
      return typeof block.content === "string"
        ? splitWords(block.content).length
        : (block.content ?? []).reduce((sum, inner) => sum + countBlockTokens(inner), 0);
    default:
      return splitWords(JSON.stringify(block)).length;
  }
}
