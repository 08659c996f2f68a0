import type { components as OpenaiComponents } from "../../../../generated/types/openai.js";
import { InvalidRequestError } from "../../../errors/gateway-error.js";
import {
  convertChatRequestToNative,
  type ChatToNativeInput,
  type ChatToNativeResult,
} from "../chat/convert-chat-request-to-native.js";
import { convertResponsesInputToMessages } from "../../shared-translations/convert-responses-input-to-messages.js";

type ResponsesRequest = OpenaiComponents["schemas"]["CreateResponseRequest"];
type ChatRequest = OpenaiComponents["schemas"]["CreateChatCompletionRequest"];
type ChatTool = OpenaiComponents["schemas"]["ChatCompletionTool"];
type ResponseFunctionTool = OpenaiComponents["schemas"]["ResponseFunctionTool"];
type ResponseWebSearchTool = OpenaiComponents["schemas"]["ResponseWebSearchTool"];

export interface ResponsesToNativeInput extends Omit<ChatToNativeInput, "request"> {
  request: ResponsesRequest;
}

/** Responses fields without a native equivalent: ignored as chat ignores its own, and reported. */
const ignoredFields = [
  "parallel_tool_calls",
  "max_tool_calls",
  "truncation",
  "metadata",
  "user",
  "store",
  "include",
  "service_tier",
  "prompt_cache_key",
  "safety_identifier",
  "background",
] as const;

/**
 * Responses request → native generateContent request. The Responses fields are restated as the chat request they
 * mean and handed to convertChatRequestToNative, so both doors share one set of rules (media, tools, schema
 * cleaning, thinking priority: extra_body.native.thinking_config, then reasoning.effort, then the model suffix).
 * On top: `reasoning.summary` auto/concise/detailed asks for the thoughts (a `reasoning` output item), unless thinking is
 * off or the client decided include_thoughts itself. The chat door's automatic adaptation (thoughts for streams) is
 * not applied, `stream` is left out of the restated request: in Responses the summary alone decides.
 * `previous_response_id` and `item_reference` input items are refused: the gateway keeps no conversation store for
 * native channels, so the client must send the whole conversation.
 */
export async function convertResponsesRequestToNative(input: ResponsesToNativeInput): Promise<ChatToNativeResult> {
  const { request } = input;
  if (typeof request.previous_response_id === "string" && request.previous_response_id !== "") {
    throw new InvalidRequestError(
      `previous_response_id is not supported for ${request.model}: the gateway keeps no conversation store for this model family. Send the whole conversation in input (earlier output items included).`,
      { param: "previous_response_id" },
    );
  }
  if (Array.isArray(request.input)) {
    for (const [index, item] of request.input.entries()) {
      if ("type" in item && item.type === "item_reference")
        throw new InvalidRequestError(
          `input[${index}] is an item_reference, which is not supported for ${request.model}: the gateway keeps no conversation store for this model family. Send the item itself (earlier output items as they were returned).`,
          { param: `input[${index}].id` },
        );
    }
  }
  const summary = readReasoningSummary(request.reasoning?.summary);
  const warnings: string[] = [];
  const fields = request as Record<string, unknown>;
  for (const field of ignoredFields) {
    if (fields[field] !== undefined && fields[field] !== null)
      warnings.push(`${field} has no native equivalent and was ignored.`);
  }

  const chatRequest: ChatRequest = {
    model: request.model,
    messages: convertResponsesInputToMessages(request, warnings),
  };
  if (typeof request.temperature === "number") chatRequest.temperature = request.temperature;
  if (typeof request.top_p === "number") chatRequest.top_p = request.top_p;
  if (typeof request.max_output_tokens === "number") chatRequest.max_completion_tokens = request.max_output_tokens;
  const effort = request.reasoning?.effort;
  if (typeof effort === "string") chatRequest.reasoning_effort = readReasoningEffort(effort);
  const tools = convertTools(request.tools, warnings);
  if (tools !== undefined) chatRequest.tools = tools;
  const toolChoice = request.tool_choice;
  if (typeof toolChoice === "string") chatRequest.tool_choice = toolChoice;
  else if (toolChoice?.type === "function" && typeof toolChoice.name === "string")
    chatRequest.tool_choice = { type: "function", function: { name: toolChoice.name } };
  else if (toolChoice !== undefined && toolChoice !== null)
    throw new InvalidRequestError(
      `tool_choice of type "${toolChoice.type}" is not supported for the native family; use auto, none, required or a function.`,
      { param: "tool_choice" },
    );
  const format = request.text?.format;
  if (format?.type === "json_object") chatRequest.response_format = { type: "json_object" };
  if (format?.type === "json_schema") {
    if (format.schema === undefined)
      throw new InvalidRequestError("text.format.schema is required for json_schema.", { param: "text.format.schema" });
    chatRequest.response_format = {
      type: "json_schema",
      json_schema: { name: format.name ?? "response", schema: format.schema },
    };
  }
  const extraBody = fields.extra_body;
  if (extraBody !== undefined) chatRequest.extra_body = extraBody as ChatRequest["extra_body"];

  const translation = await convertChatRequestToNative({ ...input, request: chatRequest });
  translation.warnings.unshift(...warnings);

  const thinkingConfig = translation.body.generationConfig?.thinkingConfig;
  const thinkingOff = thinkingConfig?.thinkingBudget === 0;
  if (summary === "wanted" && !thinkingOff && thinkingConfig?.includeThoughts === undefined) {
    translation.body.generationConfig = {
      ...translation.body.generationConfig,
      thinkingConfig: { ...thinkingConfig, includeThoughts: true },
    };
    translation.includeThoughts = true;
  }
  return translation;
}

/** The efforts the native family maps (as chat's reasoning_effort); the values are OpenAI's, so others are refused here, naming the Responses field. */
function readReasoningEffort(effort: string): string {
  switch (effort) {
    case "none":
    case "minimal":
    case "low":
    case "medium":
    case "high":
      return effort;
    default:
      throw new InvalidRequestError(
        `reasoning.effort "${effort}" is not supported for the native family; use none, minimal, low, medium or high.`,
        { param: "reasoning.effort" },
      );
  }
}

/** Whether the client asked for a reasoning summary; the summary kinds are OpenAI's, so unknown ones are refused. */
function readReasoningSummary(summary: string | null | undefined): "wanted" | "not wanted" {
  switch (summary) {
    case "auto":
    case "concise":
    case "detailed":
      return "wanted";
    case undefined:
    case null:
    case "none":
      return "not wanted";
    default:
      throw new InvalidRequestError(
        `reasoning.summary "${summary}" is not supported for the native family; use auto, concise, detailed or none.`,
        { param: "reasoning.summary" },
      );
  }
}

/** Function tools as chat tools; web_search and web_search_preview as the chat spelling of the native search tool. */
function convertTools(tools: ResponsesRequest["tools"], warnings: string[]): ChatTool[] | undefined {
  if (tools === undefined || tools.length === 0) return undefined;
  return tools.map((tool, index): ChatTool => {
    switch (tool.type) {
      case "function": {
        // The spec keeps other tools off these type names, so the type alone tells a function tool.
        const functionTool = tool as ResponseFunctionTool;
        const declaration: ChatTool["function"] = { name: functionTool.name };
        if (typeof functionTool.description === "string") declaration.description = functionTool.description;
        if (functionTool.parameters !== undefined && functionTool.parameters !== null)
          declaration.parameters = functionTool.parameters;
        return { type: "function", function: declaration };
      }
      case "web_search":
      case "web_search_preview":
        if (
          (tool as ResponseWebSearchTool).search_context_size !== undefined ||
          (tool as ResponseWebSearchTool).user_location !== undefined
        )
          warnings.push(
            `tools[${index}] search_context_size and user_location have no native equivalent and were ignored.`,
          );
        return { type: "function", function: { name: "nativeSearch" } };
      default:
        throw new InvalidRequestError(`tools[${index}].type "${tool.type}" is not supported for this model.`, {
          param: `tools[${index}].type`,
        });
    }
  });
}
