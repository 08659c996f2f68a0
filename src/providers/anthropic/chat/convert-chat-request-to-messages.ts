import type { components } from "../../../../generated/types/openai.js";
import { InvalidRequestError } from "../../../errors/invalid-request-error.js";

type ChatRequest = components["schemas"]["CreateChatCompletionRequest"];
type Block = Record<string, unknown>;
type Turn = { role: "user" | "assistant"; content: Block[] };

/** Claude requires `max_tokens`; a chat client may send none. */
export const defaultClaudeMaxTokens = 4096;

/** `reasoning_effort` as Claude's thinking budget (low 1,024, medium 2,048, high 4,096 tokens). */
export function effortToThinkingBudget(effort: string | null | undefined): number | undefined {
  switch (effort) {
    case "minimal":
    case "low":
      return 1024;
    case "medium":
      return 2048;
    case "high":
      return 4096;
    default:
      return undefined;
  }
}

interface ChatMessage {
  role: string;
  content?: unknown;
  reasoning_content?: string | null;
  tool_calls?: Array<{ id: string; function?: { name?: string; arguments?: string } }>;
  tool_call_id?: string;
}

/**
 * A chat completions request → Claude's Messages body. System and developer messages become `system`; user parts
 * become text, image (data URI → base64, else URL) and PDF document blocks; an assistant's tool calls become
 * `tool_use` blocks and the tool messages after it one user turn of `tool_result` blocks; `stop` becomes
 * `stop_sequences`, `tool_choice` and `parallel_tool_calls` Claude's tool choice, `reasoning_effort` a thinking
 * budget with `max_tokens` raised above it, and `max_tokens` defaults to 4,096 (Claude requires one). Thinking is
 * left off when the conversation continues a tool call: the chat form cannot carry the signed thinking block that
 * Claude requires at the head of that turn.
 */
export function convertChatRequestToMessages(request: ChatRequest, upstreamModel: string): Record<string, unknown> {
  const system: string[] = [];
  const turns: Turn[] = [];
  const push = (role: Turn["role"], blocks: Block[]) => {
    const last = turns.at(-1);
    // Tool results of parallel calls (several tool messages) and a user text after them make one user turn.
    if (last && last.role === role && role === "user") last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  (request.messages as ChatMessage[]).forEach((message, index) => {
    switch (message.role) {
      case "system":
      case "developer":
        system.push(textOf(message.content));
        break;
      case "user":
        push("user", toUserBlocks(message.content, index));
        break;
      case "assistant": {
        const blocks: Block[] = [];
        const text = textOf(message.content);
        if (text) blocks.push({ type: "text", text });
        for (const call of message.tool_calls ?? [])
          blocks.push({
            type: "tool_use",
            id: call.id,
            name: call.function?.name ?? "",
            input: parseArguments(call.function?.arguments),
          });
        if (blocks.length > 0) push("assistant", blocks);
        break;
      }
      case "tool":
      case "function":
        push("user", [
          { type: "tool_result", tool_use_id: message.tool_call_id ?? "", content: textOf(message.content) },
        ]);
        break;
      default:
        throw new InvalidRequestError(`messages[${index}].role ${message.role} has no Claude equivalent.`, {
          param: `messages[${index}].role`,
        });
    }
  });

  const clientMaxTokens = request.max_completion_tokens ?? request.max_tokens ?? undefined;
  const body: Record<string, unknown> = {
    model: upstreamModel,
    max_tokens: clientMaxTokens ?? defaultClaudeMaxTokens,
    messages: turns,
  };
  if (system.length > 0) body.system = system.join("\n\n");
  if (request.stream === true) body.stream = true;
  if (typeof request.temperature === "number") body.temperature = Math.min(1, request.temperature);
  if (typeof request.top_p === "number") body.top_p = request.top_p;
  const stop = request.stop;
  if (typeof stop === "string") body.stop_sequences = [stop];
  else if (Array.isArray(stop) && stop.length > 0) body.stop_sequences = stop;
  if (typeof request.user === "string") body.metadata = { user_id: request.user };
  const tools = (request.tools ?? []) as Array<{
    type?: string;
    function?: { name?: string; description?: string; parameters?: unknown };
  }>;
  const functions = tools.filter((tool) => tool.type === "function" && tool.function?.name);
  if (functions.length > 0) {
    body.tools = functions.map((tool) => ({
      name: tool.function!.name,
      ...(tool.function!.description !== undefined ? { description: tool.function!.description } : {}),
      input_schema: tool.function!.parameters ?? { type: "object", properties: {} },
    }));
    const choice = request.tool_choice as string | { function?: { name?: string } } | undefined;
    const claudeChoice: Record<string, unknown> | undefined =
      choice === "required"
        ? { type: "any" }
        : choice === "none"
          ? { type: "none" }
          : typeof choice === "object" && choice?.function?.name
            ? { type: "tool", name: choice.function.name }
            : choice === "auto" || request.parallel_tool_calls === false
              ? { type: "auto" }
              : undefined;
    if (claudeChoice && request.parallel_tool_calls === false && claudeChoice.type !== "none")
      claudeChoice.disable_parallel_tool_use = true;
    if (claudeChoice) body.tool_choice = claudeChoice;
  }
  const effort = request.reasoning_effort as string | null | undefined;
  const budget = effortToThinkingBudget(effort);
  // The value belongs to the provider: a translated channel takes the levels it can budget and refuses the rest.
  if (budget === undefined && effort !== undefined && effort !== null && effort !== "none")
    throw new InvalidRequestError(
      `reasoning_effort "${effort}" is not supported on a Claude channel (minimal, low, medium, high, none).`,
      { param: "reasoning_effort" },
    );
  const continuesToolCall = turns.at(-1)?.content.some((block) => block.type === "tool_result") === true;
  if (budget !== undefined && !continuesToolCall) {
    body.thinking = { type: "enabled", budget_tokens: budget };
    // Claude counts thinking inside max_tokens and wants the budget below it.
    if ((body.max_tokens as number) <= budget) body.max_tokens = budget + (clientMaxTokens ?? defaultClaudeMaxTokens);
    delete body.temperature;
    delete body.top_p;
  }
  return body;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: { type?: string; text?: string }) =>
      part.type === "text" || part.type === "input_text" ? (part.text ?? "") : "",
    )
    .join("");
}

function toUserBlocks(content: unknown, index: number): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  type ContentPart = { type?: string; text?: string; image_url?: { url?: string }; file?: { file_data?: string } };
  return content.map((part: ContentPart, partIndex): Block => {
    switch (part.type) {
      case "text":
        return { type: "text", text: part.text ?? "" };
      case "image_url": {
        const url = String(part.image_url?.url ?? "");
        const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
        return data
          ? { type: "image", source: { type: "base64", media_type: data[1], data: data[2] } }
          : { type: "image", source: { type: "url", url } };
      }
      case "file": {
        const data = /^data:([^;,]+);base64,(.*)$/s.exec(String(part.file?.file_data ?? ""));
        if (data) return { type: "document", source: { type: "base64", media_type: data[1], data: data[2] } };
        break;
      }
    }
    throw new InvalidRequestError(
      `messages[${index}].content[${partIndex}]: a ${part.type} part has no Claude equivalent on this model's channel.`,
      { param: `messages[${index}].content[${partIndex}]` },
    );
  });
}

function parseArguments(text: string | undefined): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text || "{}");
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
