import type { components } from "../../../../generated/types/openai.js";
import { InvalidRequestError } from "../../../errors/gateway-error.js";
import { createFormatTool, placeFormatTool, refuseFormatWhileThinking } from "../format-tool.js";

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

/** Claude's thinking budget when the client turns thinking on without naming one (reasoning_effort medium). */
export const defaultClaudeThinkingBudget = 2048;

interface ChatMessage {
  role: string;
  content?: unknown;
  reasoning_content?: string | null;
  tool_calls?: Array<{ id: string; function?: { name?: string; arguments?: string } }>;
  tool_call_id?: string;
  extra_content?: { anthropic?: { thinking_blocks?: unknown } } | null;
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
        // The signed thinking the answer carried, back at the head of its turn (Claude checks the signatures).
        const blocks: Block[] = readThinkingBlocks(message.extra_content?.anthropic?.thinking_blocks, index);
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
  }
  const format = toFormatTool(request.response_format);
  if (functions.length > 0) {
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
  if (format)
    placeFormatTool(body, format, {
      ownToolNames: functions.map((tool) => tool.function!.name!),
      ownToolsOff: request.tool_choice === "none",
      namedTool: typeof request.tool_choice === "object" && request.tool_choice !== null,
      oneCallAtATime: request.parallel_tool_calls === false,
      param: "response_format",
    });
  const budget = readThinkingBudget(request);
  const continuesToolCall = turns.at(-1)?.content.some((block) => block.type === "tool_result") === true;
  // Continuing a tool call, thinking stays on only when the turn that called the tool opens with its signed
  // thinking (the client sent extra_content back): Claude refuses a thinking request whose tool turn lacks it.
  const toolTurnOpensWithThinking = /thinking$/.test(String(turns.at(-2)?.content[0]?.type ?? ""));
  if (budget !== undefined && format && (!continuesToolCall || toolTurnOpensWithThinking))
    throw refuseFormatWhileThinking("response_format", "thinking, reasoning_effort");
  if (budget !== undefined && (!continuesToolCall || toolTurnOpensWithThinking)) {
    body.thinking = { type: "enabled", budget_tokens: budget };
    // Claude counts thinking inside max_tokens and wants the budget below it.
    if ((body.max_tokens as number) <= budget) body.max_tokens = budget + (clientMaxTokens ?? defaultClaudeMaxTokens);
    delete body.temperature;
    delete body.top_p;
  }
  return body;
}

/**
 * The thinking budget the request asks for, if any: the chat `thinking` switch first (`disabled` wins over
 * `reasoning_effort`; `enabled` takes its own `budget_tokens`, else the effort's, else the default), then
 * `reasoning_effort` alone.
 */
function readThinkingBudget(request: ChatRequest): number | undefined {
  const effort = request.reasoning_effort as string | null | undefined;
  const effortBudget = effortToThinkingBudget(effort);
  // The value belongs to the provider: a translated channel takes the levels it can budget and refuses the rest.
  if (effortBudget === undefined && effort !== undefined && effort !== null && effort !== "none")
    throw new InvalidRequestError(
      `reasoning_effort "${effort}" is not supported on a Claude channel (minimal, low, medium, high, none).`,
      { param: "reasoning_effort" },
    );
  const thinking = request.thinking;
  if (thinking?.type === "disabled") return undefined;
  if (thinking?.type !== "enabled") return effortBudget;
  const budget = thinking.budget_tokens;
  if (budget === undefined) return effortBudget ?? defaultClaudeThinkingBudget;
  if (!Number.isInteger(budget) || budget < 1024)
    throw new InvalidRequestError(
      `thinking.budget_tokens must be a whole number of at least 1024 on a Claude channel.`,
      {
        param: "thinking.budget_tokens",
      },
    );
  return budget;
}

/** The name of the tool a JSON response format becomes, if the request asks for one. */
export function findFormatToolName(request: ChatRequest): string | undefined {
  return toFormatTool(request.response_format)?.name as string | undefined;
}

/** A JSON response format as the tool Claude is made to call. */
function toFormatTool(format: ChatRequest["response_format"]): Block | undefined {
  if (format?.type === "json_object") return createFormatTool({ type: "json_object" });
  if (format?.type !== "json_schema") return undefined;
  const { name, description, schema } = format.json_schema as { name: string; description?: string; schema?: unknown };
  return createFormatTool({ type: "json_schema", name, description, schema });
}

/** The thinking blocks an assistant message carries back in `extra_content.anthropic.thinking_blocks`. */
function readThinkingBlocks(value: unknown, index: number): Block[] {
  if (value === undefined || value === null) return [];
  const valid =
    Array.isArray(value) &&
    value.every(
      (block: Block) =>
        typeof block === "object" &&
        block !== null &&
        ((block.type === "thinking" && typeof block.thinking === "string" && typeof block.signature === "string") ||
          (block.type === "redacted_thinking" && typeof block.data === "string")),
    );
  if (!valid)
    throw new InvalidRequestError(
      `messages[${index}].extra_content.anthropic.thinking_blocks must be the thinking blocks of an earlier answer, unchanged.`,
      { param: `messages[${index}].extra_content.anthropic.thinking_blocks` },
    );
  return (value as Block[]).map((block) =>
    block.type === "thinking"
      ? { type: "thinking", thinking: block.thinking, signature: block.signature }
      : { type: "redacted_thinking", data: block.data },
  );
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
