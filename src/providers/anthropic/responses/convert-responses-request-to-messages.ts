import type { components } from "../../../../generated/types/openai.js";
import { InvalidRequestError } from "../../../errors/gateway-error.js";
import { defaultClaudeMaxTokens, effortToThinkingBudget } from "../chat/convert-chat-request-to-messages.js";
import { createFormatTool, placeFormatTool, refuseFormatWhileThinking } from "../format-tool.js";
import { decodeClaudeThinking } from "./claude-thinking-carrier.js";

type ResponsesRequest = components["schemas"]["CreateResponseRequest"];
type Block = Record<string, unknown>;
type Turn = { role: "user" | "assistant"; content: Block[] };

/**
 * A Responses request → Claude's Messages body.
 * - `instructions`, and system or developer messages, become `system` (in order).
 * - User parts: input_text → text; input_image → image (a data URL as base64, else the URL); input_file with
 *   file_data → a base64 document. Assistant messages' text → text blocks.
 * - A reasoning item this gateway gave (its `encrypted_content` carries the thinking block) goes back as that
 *   thinking block; function_call items become `tool_use` blocks of the same assistant turn (the call_id is the
 *   tool_use id), function_call_output items `tool_result` blocks of the next user turn. Consecutive items of one
 *   role make one turn, as Claude wants turns to alternate.
 * - Function tools become custom tools; `tool_choice` and `parallel_tool_calls` Claude's tool choice;
 *   `max_output_tokens` is `max_tokens` (4,096 when absent: Claude requires one); `reasoning.effort` a thinking
 *   budget (low 1,024, medium 2,048, high 4,096) with `max_tokens` raised above it. Thinking stays off when the
 *   request continues a tool call whose assistant turn came back without its thinking block (Claude would refuse it).
 * - A JSON `text.format` becomes a tool Claude is made to call (see format-tool.ts); with thinking on it is refused.
 * Refused with a 400 naming the field: what Claude cannot take (other tool kinds, file ids) and continuations by
 * id (previous_response_id, item_reference: nothing is stored for Claude channels).
 */
export function convertResponsesRequestToMessages(
  request: ResponsesRequest,
  upstreamModel: string,
): Record<string, unknown> {
  if (typeof request.previous_response_id === "string" && request.previous_response_id !== "")
    throw new InvalidRequestError(
      `previous_response_id is not supported for ${request.model}: the gateway keeps no conversation store for Claude channels. Send the whole conversation in input (earlier output items included).`,
      { param: "previous_response_id" },
    );
  const system: string[] = [];
  if (typeof request.instructions === "string" && request.instructions !== "") system.push(request.instructions);
  const turns: Turn[] = [];
  const push = (role: Turn["role"], blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };

  if (typeof request.input === "string") push("user", [{ type: "text", text: request.input }]);
  else
    for (const [index, item] of request.input.entries()) {
      const path = `input[${index}]`;
      const type = "type" in item ? item.type : "message";
      switch (type) {
        case "reasoning": {
          const carried = decodeClaudeThinking((item as { encrypted_content?: unknown }).encrypted_content);
          // Reasoning of another provider, or a summary without the block, cannot be replayed to Claude.
          if (carried !== undefined && !("foreign" in carried)) push("assistant", [{ ...carried }]);
          break;
        }
        case "function_call": {
          const call = item as components["schemas"]["ResponseInputFunctionCall"];
          push("assistant", [
            { type: "tool_use", id: call.call_id, name: call.name, input: parseArguments(call.arguments, path) },
          ]);
          break;
        }
        case "function_call_output": {
          const output = item as components["schemas"]["ResponseInputFunctionCallOutput"];
          push("user", [{ type: "tool_result", tool_use_id: output.call_id, content: output.output }]);
          break;
        }
        case "message": {
          const message = item as components["schemas"]["ResponseInputMessage"];
          const parts =
            typeof message.content === "string"
              ? [{ type: "input_text" as const, text: message.content }]
              : message.content;
          if (message.role === "system" || message.role === "developer")
            system.push(parts.map((part, partIndex) => readText(part, `${path}.content[${partIndex}]`)).join("\n"));
          else if (message.role === "assistant")
            push(
              "assistant",
              parts.map((part, partIndex) => ({ type: "text", text: readText(part, `${path}.content[${partIndex}]`) })),
            );
          else
            push(
              "user",
              parts.map((part, partIndex) => convertUserPart(part, `${path}.content[${partIndex}]`)),
            );
          break;
        }
        default:
          throw new InvalidRequestError(
            `${path}.type "${type}" is not supported for ${request.model} (a Claude channel).`,
            {
              param: `${path}.type`,
            },
          );
      }
    }

  if (turns.length === 0)
    throw new InvalidRequestError("input has no user or assistant item to answer (Claude needs one message).", {
      param: "input",
    });
  const clientMaxTokens = request.max_output_tokens ?? undefined;
  const body: Record<string, unknown> = {
    model: upstreamModel,
    max_tokens: clientMaxTokens ?? defaultClaudeMaxTokens,
    messages: turns,
  };
  if (system.length > 0) body.system = system.join("\n\n");
  if (request.stream === true) body.stream = true;
  if (typeof request.temperature === "number") body.temperature = Math.min(1, request.temperature);
  if (typeof request.top_p === "number") body.top_p = request.top_p;
  if (typeof request.user === "string") body.metadata = { user_id: request.user };

  const tools = request.tools ?? [];
  if (tools.length > 0) {
    body.tools = tools.map((tool, index) => {
      if (tool.type !== "function")
        throw new InvalidRequestError(
          `tools[${index}].type "${tool.type}" is not supported for ${request.model} (a Claude channel); send function tools.`,
          { param: `tools[${index}].type` },
        );
      const declared = tool as components["schemas"]["ResponseFunctionTool"];
      return {
        name: declared.name,
        ...(typeof declared.description === "string" ? { description: declared.description } : {}),
        input_schema: declared.parameters ?? { type: "object", properties: {} },
      };
    });
    const choice = convertToolChoice(request.tool_choice);
    if (request.parallel_tool_calls === false && choice?.type !== "none")
      body.tool_choice = { ...(choice ?? { type: "auto" }), disable_parallel_tool_use: true };
    else if (choice !== undefined) body.tool_choice = choice;
  }
  const format = findResponsesFormatTool(request);
  if (format)
    placeFormatTool(body, format, {
      ownToolNames: tools.map((tool) => (tool as { name?: string }).name ?? ""),
      ownToolsOff: request.tool_choice === "none",
      namedTool: typeof request.tool_choice === "object" && request.tool_choice !== null,
      oneCallAtATime: request.parallel_tool_calls === false,
      param: "text.format",
    });

  const effort = request.reasoning?.effort ?? undefined;
  const budget = effortToThinkingBudget(effort);
  if (budget === undefined && effort !== undefined && effort !== "none")
    throw new InvalidRequestError(
      `reasoning.effort "${effort}" is not supported on a Claude channel (minimal, low, medium, high, none).`,
      { param: "reasoning.effort" },
    );
  if (budget !== undefined && format && thinkingCanContinue(turns))
    throw refuseFormatWhileThinking("text.format", "reasoning.effort");
  if (budget !== undefined && thinkingCanContinue(turns)) {
    body.thinking = { type: "enabled", budget_tokens: budget };
    // Claude counts thinking inside max_tokens and wants the budget below it.
    if ((body.max_tokens as number) <= budget) body.max_tokens = budget + (clientMaxTokens ?? defaultClaudeMaxTokens);
    delete body.temperature;
    delete body.top_p;
  }
  return body;
}

/** The tool a JSON `text.format` becomes on a Claude channel, if the request asks for one. */
export function findResponsesFormatTool(request: ResponsesRequest): Record<string, unknown> | undefined {
  const format = request.text?.format;
  if (format?.type === "json_object") return createFormatTool({ type: "json_object" });
  if (format?.type !== "json_schema") return undefined;
  if (typeof format.name !== "string" || format.name === "")
    throw new InvalidRequestError("text.format.name is required for a json_schema format.", {
      param: "text.format.name",
    });
  const description = (format as { description?: unknown }).description;
  return createFormatTool({
    type: "json_schema",
    name: format.name,
    description: typeof description === "string" ? description : undefined,
    schema: format.schema,
  });
}

/** With thinking on, Claude wants the assistant turn a tool result answers to open with its thinking block. */
function thinkingCanContinue(turns: readonly Turn[]): boolean {
  const last = turns.at(-1);
  if (last?.role !== "user" || !last.content.some((block) => block.type === "tool_result")) return true;
  const head = turns.at(-2)?.content[0]?.type;
  return head === "thinking" || head === "redacted_thinking";
}

function convertToolChoice(choice: ResponsesRequest["tool_choice"]): Block | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (choice === "auto") return { type: "auto" };
  if (choice === "required") return { type: "any" };
  if (choice === "none") return { type: "none" };
  if (typeof choice === "object" && choice.type === "function" && typeof choice.name === "string")
    return { type: "tool", name: choice.name };
  throw new InvalidRequestError(
    `tool_choice of type "${String((choice as { type?: unknown }).type)}" is not supported on a Claude channel.`,
    {
      param: "tool_choice",
    },
  );
}

type InputPart = components["schemas"]["ResponseInputContent"];

function convertUserPart(part: InputPart, path: string): Block {
  switch (part.type) {
    case "input_text":
    case "output_text":
      return { type: "text", text: part.text };
    case "input_image": {
      if (typeof part.image_url !== "string" || part.image_url === "") throw fileIdRefused(path);
      const data = /^data:([^;,]+);base64,(.*)$/s.exec(part.image_url);
      return data
        ? { type: "image", source: { type: "base64", media_type: data[1], data: data[2] } }
        : { type: "image", source: { type: "url", url: part.image_url } };
    }
    case "input_file": {
      const data = /^data:([^;,]+);base64,(.*)$/s.exec(typeof part.file_data === "string" ? part.file_data : "");
      if (data) return { type: "document", source: { type: "base64", media_type: data[1], data: data[2] } };
      throw fileIdRefused(path);
    }
  }
  throw new InvalidRequestError(
    `${path}.type "${(part as { type: string }).type}" is not supported on a Claude channel.`,
    {
      param: `${path}.type`,
    },
  );
}

function readText(part: InputPart, path: string): string {
  if (part.type === "input_text" || part.type === "output_text") return part.text;
  throw new InvalidRequestError(`${path}.type "${part.type}" is only allowed in user messages.`, {
    param: `${path}.type`,
  });
}

function fileIdRefused(path: string): InvalidRequestError {
  return new InvalidRequestError(`${path}: file ids are not supported on a Claude channel; send the content inline.`, {
    param: path,
  });
}

function parseArguments(text: string, path: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text || "{}");
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // refused below
  }
  throw new InvalidRequestError(`${path}.arguments is not a JSON object.`, { param: `${path}.arguments` });
}
