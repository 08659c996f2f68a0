import type { ChatMessage, ChatRequest, ChatResponseFormat, ChatTool } from "./chat-request.js";
import { OpenaiRequestError } from "./openai-request-error.js";
import { requireModel } from "./require-model.js";

const roles = ["system", "assistant", "user", "function", "tool", "developer"];

function missing(param: string): OpenaiRequestError {
  return new OpenaiRequestError(
    400,
    `Missing required parameter: '${param}'.`,
    "invalid_request_error",
    param,
    "missing_required_parameter",
  );
}

function invalidType(param: string, expected: string, value: unknown): OpenaiRequestError {
  const actual = Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`;
  return new OpenaiRequestError(
    400,
    `Invalid type for '${param}': expected ${expected}, but got ${actual} instead.`,
    "invalid_request_error",
    param,
    "invalid_type",
  );
}

function readTokenLimit(body: Record<string, unknown>, param: string): number | undefined {
  const value = body[param];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value)) throw invalidType(param, "an integer", value);
  if (value < 1) {
    throw new OpenaiRequestError(
      400,
      `Invalid '${param}': integer below minimum value. Expected a value >= 1, but got ${value} instead.`,
      "invalid_request_error",
      param,
      "integer_below_min_value",
    );
  }
  return value;
}

function validateMessages(value: unknown): ChatMessage[] {
  if (value === undefined) throw missing("messages");
  if (!Array.isArray(value)) throw invalidType("messages", "an array of objects", value);
  if (value.length === 0) {
    throw new OpenaiRequestError(
      400,
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      "invalid_request_error",
      "messages",
      "empty_array",
    );
  }
  const pendingToolCallIds = new Set<string>();
  value.forEach((message: unknown, index) => {
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      throw invalidType(`messages[${index}]`, "an object", message);
    }
    const { role, content, tool_calls: toolCalls, tool_call_id: toolCallId } = message as ChatMessage;
    if (role === undefined) throw missing(`messages[${index}].role`);
    if (typeof role !== "string" || !roles.includes(role)) {
      throw new OpenaiRequestError(
        400,
        `Invalid value: '${String(role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        "invalid_request_error",
        `messages[${index}].role`,
        "invalid_value",
      );
    }
    const mayOmitContent = role === "assistant" && Array.isArray(toolCalls) && toolCalls.length > 0;
    if (content === undefined && !mayOmitContent) throw missing(`messages[${index}].content`);
    if (role === "assistant") {
      pendingToolCallIds.clear();
      for (const call of toolCalls ?? []) pendingToolCallIds.add(call.id);
    }
    if (role === "tool") {
      if (typeof toolCallId !== "string") throw missing(`messages[${index}].tool_call_id`);
      // OpenAI's own wording, misspelling included: clients match on it.
      if (!pendingToolCallIds.has(toolCallId)) {
        throw new OpenaiRequestError(
          400,
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          "invalid_request_error",
          `messages.[${index}].role`,
        );
      }
    }
  });
  return value as ChatMessage[];
}

function validateTools(value: unknown): ChatTool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidType("tools", "an array of objects", value);
  value.forEach((tool: unknown, index) => {
    const candidate = tool as Partial<ChatTool> | null;
    if (typeof candidate?.function?.name !== "string") throw missing(`tools[${index}].function.name`);
  });
  return value as ChatTool[];
}

function validateResponseFormat(value: unknown): ChatResponseFormat | undefined {
  if (value === undefined || value === null) return undefined;
  const type = (value as { type?: unknown }).type;
  if (type !== "text" && type !== "json_object" && type !== "json_schema") {
    throw new OpenaiRequestError(
      400,
      `Invalid value: '${String(type)}'. Supported values are: 'json_object', 'json_schema', and 'text'.`,
      "invalid_request_error",
      "response_format.type",
      "invalid_value",
    );
  }
  return value as ChatResponseFormat;
}

/** Checks a chat completion body the way OpenAI does, with its messages, params and codes. */
export function validateChatRequest(body: Record<string, unknown>): ChatRequest {
  const model = requireModel(body);
  const messages = validateMessages(body.messages);
  const stream = body.stream === true;
  if (body.stream_options !== undefined && body.stream_options !== null && !stream) {
    throw new OpenaiRequestError(
      400,
      "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
      "invalid_request_error",
      "stream_options",
    );
  }
  const tools = validateTools(body.tools);
  if (body.tool_choice !== undefined && body.tool_choice !== null && tools.length === 0) {
    throw new OpenaiRequestError(
      400,
      "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
      "invalid_request_error",
      "tool_choice",
    );
  }
  const thinking = body.thinking as { type?: unknown } | undefined;
  return {
    model,
    messages,
    stream,
    includeUsage: (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true,
    maxTokens: readTokenLimit(body, "max_completion_tokens") ?? readTokenLimit(body, "max_tokens"),
    tools,
    toolChoice: body.tool_choice,
    responseFormat: validateResponseFormat(body.response_format),
    reasoning: model.includes("reasoner") || thinking?.type === "enabled" || body.enable_thinking === true,
  };
}
