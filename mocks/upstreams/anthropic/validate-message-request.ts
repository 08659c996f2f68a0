import { AnthropicRequestError } from "./anthropic-request-error.js";
import type { FakeContentBlock, FakeMessageRequest } from "./fake-anthropic-types.js";
import { signThinking } from "./sign-thinking.js";

const knownBlockTypes = new Set([
  "text",
  "image",
  "document",
  "tool_use",
  "tool_result",
  "thinking",
  "redacted_thinking",
  "search_result",
  "server_tool_use",
  "web_search_tool_result",
]);

const invalid = (message: string) => new AnthropicRequestError(400, message);

/**
 * Anthropic's checks that a gateway can get wrong: required fields, block shapes, thinking signatures (a thinking
 * block must come back exactly as it was answered), the thinking block that must open an assistant turn with tool
 * use while thinking is on, and every `tool_use` answered by a `tool_result` in the next user turn. Messages as
 * Anthropic words them (`messages.1.content.0: …`).
 */
export function validateMessageRequest(body: unknown, options: { countOnly: boolean }): FakeMessageRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw invalid("Request body must be a JSON object");
  const request = body as Record<string, unknown>;
  if (typeof request.model !== "string" || request.model === "") throw invalid("model: Field required");
  if (!options.countOnly) {
    if (request.max_tokens === undefined) throw invalid("max_tokens: Field required");
    if (!Number.isInteger(request.max_tokens) || (request.max_tokens as number) < 1)
      throw invalid("max_tokens: Input should be a valid integer greater than or equal to 1");
  }
  if (!Array.isArray(request.messages) || request.messages.length === 0)
    throw invalid("messages: at least one message is required");
  const typed = request as unknown as FakeMessageRequest;
  const thinkingOn = typed.thinking?.type === "enabled" || typed.thinking?.type === "adaptive";
  if (typed.thinking?.type === "enabled") {
    const budget = typed.thinking.budget_tokens;
    if (!Number.isInteger(budget) || (budget as number) < 1024)
      throw invalid("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024");
    if (!options.countOnly && (budget as number) >= typed.max_tokens)
      throw invalid("`max_tokens` must be greater than `thinking.budget_tokens`.");
  }
  const forcedTool = typed.tool_choice?.type === "any" || typed.tool_choice?.type === "tool";
  if (thinkingOn && forcedTool) throw invalid("Thinking may not be enabled when tool_choice forces tool use.");

  typed.messages.forEach((message, messageIndex) => {
    if (message.role !== "user" && message.role !== "assistant" && message.role !== "system")
      throw invalid(`messages.${messageIndex}.role: Input should be 'user', 'assistant' or 'system'`);
    if (typeof message.content === "string") return;
    if (!Array.isArray(message.content))
      throw invalid(`messages.${messageIndex}.content: Input should be a valid list`);
    message.content.forEach((block, blockIndex) => {
      const where = `messages.${messageIndex}.content.${blockIndex}`;
      checkBlock(block, where);
      if (block.type === "thinking" && block.signature !== signThinking(block.thinking ?? ""))
        throw invalid(`${where}: Invalid \`signature\` in \`thinking\` block`);
      if (
        (block.type === "thinking" || block.type === "tool_result") &&
        message.role !== (block.type === "thinking" ? "assistant" : "user")
      )
        throw invalid(`${where}: \`${block.type}\` blocks are not allowed in ${message.role} messages`);
    });
    const toolUses = message.content.filter((block) => block.type === "tool_use");
    if (message.role !== "assistant" || toolUses.length === 0) return;
    const next = typed.messages[messageIndex + 1];
    if (next === undefined) return;
    const answered = new Set(
      Array.isArray(next.content)
        ? next.content.filter((block) => block.type === "tool_result").map((block) => block.tool_use_id)
        : [],
    );
    const unanswered = toolUses.filter((block) => !answered.has(block.id));
    if (unanswered.length > 0)
      throw invalid(
        `messages.${messageIndex + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.map((block) => block.id).join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
    // With thinking on, the turn that called tools must open with its thinking, so the model can continue it.
    const first = message.content[0];
    if (
      thinkingOn &&
      messageIndex === typed.messages.length - 2 &&
      first?.type !== "thinking" &&
      first?.type !== "redacted_thinking"
    )
      throw invalid(
        `messages.${messageIndex}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.`,
      );
  });
  return typed;
}

function checkBlock(block: FakeContentBlock, where: string): void {
  if (typeof block !== "object" || block === null || typeof block.type !== "string")
    throw invalid(`${where}: Input should be a valid dictionary with a type`);
  if (!knownBlockTypes.has(block.type))
    throw invalid(
      `${where}.type: Input tag '${block.type}' found using 'type' does not match any of the expected tags`,
    );
  const missing = (field: string) => invalid(`${where}.${block.type}.${field}: Field required`);
  switch (block.type) {
    case "text":
      if (typeof block.text !== "string") throw missing("text");
      break;
    case "tool_use":
      if (typeof block.id !== "string") throw missing("id");
      if (typeof block.name !== "string") throw missing("name");
      if (typeof block.input !== "object" || block.input === null) throw missing("input");
      break;
    case "tool_result":
      if (typeof block.tool_use_id !== "string") throw missing("tool_use_id");
      break;
    case "thinking":
      if (typeof block.thinking !== "string") throw missing("thinking");
      if (typeof block.signature !== "string") throw missing("signature");
      break;
    case "image":
    case "document":
      if (typeof block.source !== "object" || block.source === null) throw missing("source");
      break;
  }
}
