/** Tokens held for one image, audio clip or file part, whatever its size (OpenAI's largest high-detail image is 1,445). */
export const MEDIA_PART_TOKENS = 1_500;
/** Per-message framing (role, separators) in chat formats. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Reply priming every chat request pays once. */
export const REQUEST_OVERHEAD_TOKENS = 3;

const MEDIA_PART_TYPES = new Set([
  "image_url",
  "input_image",
  "image",
  "input_audio",
  "input_file",
  "file",
  "audio",
  // Anthropic's PDF and text documents, whose base64 would otherwise count as text.
  "document",
]);
const MEDIA_KEYS = new Set(["inlineData", "inline_data", "fileData", "file_data"]);
const MESSAGE_LIST_KEYS = new Set(["messages", "contents", "input", "requests"]);

/**
 * A cheap, conservative guess of a request's prompt tokens, used only to size the quota reservation (billing uses the
 * upstream's reported usage). It works on any of the three API shapes (chat messages, Responses input, native
 * contents, embeddings, speech and image prompts) by walking the whole JSON body once, without a tokenizer:
 * - every string counts: ASCII at 3 characters per token (real tokenizers average about 4), any other character
 *   as a whole token (CJK and emoji run near one token each); tool definitions and schemas count too, as upstreams
 *   bill them as prompt;
 * - a number inside an array counts as one token (embeddings accept pre-tokenized input as arrays of token ids);
 * - an image, audio or file part, and any data: URI, counts MEDIA_PART_TOKENS instead of its (base64) length;
 * - each element of a top-level messages / contents / input / requests list adds MESSAGE_OVERHEAD_TOKENS, and every
 *   request REQUEST_OVERHEAD_TOKENS.
 * The walk is iterative, so a deeply nested body cannot overflow the stack.
 */
export function estimatePromptTokens(body: unknown): number {
  let asciiCharacters = 0;
  let tokens = REQUEST_OVERHEAD_TOKENS;
  if (isRecord(body)) {
    for (const key of MESSAGE_LIST_KEYS) {
      const list = body[key];
      if (Array.isArray(list)) tokens += MESSAGE_OVERHEAD_TOKENS * list.filter(isRecord).length;
    }
  }
  const pending: Array<{ value: unknown; inArray: boolean }> = [{ value: body, inArray: false }];
  while (pending.length > 0) {
    const { value, inArray } = pending.pop()!;
    if (typeof value === "string") {
      if (value.startsWith("data:")) {
        tokens += MEDIA_PART_TOKENS;
        continue;
      }
      for (let index = 0; index < value.length; index += 1) {
        if (value.charCodeAt(index) < 128) asciiCharacters += 1;
        else tokens += 1;
      }
    } else if (typeof value === "number") {
      if (inArray) tokens += 1;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push({ value: item, inArray: true });
    } else if (isRecord(value)) {
      if (typeof value.type === "string" && MEDIA_PART_TYPES.has(value.type)) {
        tokens += MEDIA_PART_TOKENS;
        continue;
      }
      for (const [key, child] of Object.entries(value)) {
        if (MEDIA_KEYS.has(key)) tokens += MEDIA_PART_TOKENS;
        else pending.push({ value: child, inArray: false });
      }
    }
  }
  return tokens + Math.ceil(asciiCharacters / 3);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
