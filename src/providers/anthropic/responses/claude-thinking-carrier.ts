/**
 * A Claude thinking block as the `encrypted_content` of a Responses reasoning item. Claude refuses a tool turn with
 * thinking on unless the assistant turn comes back with its thinking block exactly as answered (text and
 * `signature`); `encrypted_content` is the field every official SDK keeps when the client sends a response's output
 * back as its next input. The whole block goes in (the summary is for reading and a client may drop it), marked so
 * that another provider's encrypted reasoning, or a native thought signature, is never sent to Claude.
 */
const thinkingPrefix = "claude-thinking:";
const redactedPrefix = "claude-redacted-thinking:";

export type ClaudeThinkingBlock =
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string };

export function encodeClaudeThinking(block: ClaudeThinkingBlock): string {
  if (block.type === "redacted_thinking") return `${redactedPrefix}${block.data}`;
  const json = JSON.stringify({ thinking: block.thinking, signature: block.signature });
  return `${thinkingPrefix}${Buffer.from(json, "utf8").toString("base64url")}`;
}

/** The thinking block a reasoning item carries; `foreign` when it carries encrypted content of another kind. */
export function decodeClaudeThinking(encryptedContent: unknown): ClaudeThinkingBlock | { foreign: true } | undefined {
  if (typeof encryptedContent !== "string" || encryptedContent === "") return undefined;
  if (encryptedContent.startsWith(redactedPrefix)) {
    const data = encryptedContent.slice(redactedPrefix.length);
    return data === "" ? { foreign: true } : { type: "redacted_thinking", data };
  }
  if (!encryptedContent.startsWith(thinkingPrefix)) return { foreign: true };
  try {
    const parsed = JSON.parse(
      Buffer.from(encryptedContent.slice(thinkingPrefix.length), "base64url").toString("utf8"),
    ) as { thinking?: unknown; signature?: unknown };
    if (typeof parsed.thinking === "string" && typeof parsed.signature === "string" && parsed.signature !== "")
      return { type: "thinking", thinking: parsed.thinking, signature: parsed.signature };
  } catch {
    // not ours after all: treated as foreign below
  }
  return { foreign: true };
}
