import type { components } from "../../../../generated/types/openai.js";
import { InvalidRequestError } from "../../../errors/gateway-error.js";
import { convertResponsesInputToMessages } from "../../shared-translations/convert-responses-input-to-messages.js";
import { convertChatRequestToConverse } from "../convert-chat-request-to-converse.js";
import type { ConverseRequest } from "../converse-types.js";

type ResponsesRequest = components["schemas"]["CreateResponseRequest"];
type ChatRequest = components["schemas"]["CreateChatCompletionRequest"];
type ChatTool = components["schemas"]["ChatCompletionTool"];
type ResponseFunctionTool = components["schemas"]["ResponseFunctionTool"];

/**
 * A Responses request → the Converse API, through the chat request it means (the same restatement the native
 * family makes: `instructions` and `input` by convertResponsesInputToMessages, `max_output_tokens`, sampling,
 * function tools, `tool_choice`, `reasoning.effort`), so Bedrock's two doors share one set of Converse rules. The
 * gateway keeps no conversation for Bedrock channels: `previous_response_id` and `item_reference` are refused, as
 * are tools and text formats Converse has no place for.
 */
export function convertResponsesRequestToConverse(request: ResponsesRequest, upstreamModel: string): ConverseRequest {
  if (typeof request.previous_response_id === "string" && request.previous_response_id !== "")
    throw new InvalidRequestError(
      `previous_response_id is not supported for ${request.model}: the gateway keeps no conversation for Bedrock channels. Send the whole conversation in input.`,
      { param: "previous_response_id" },
    );
  if (Array.isArray(request.input))
    for (const [index, item] of request.input.entries())
      if ("type" in item && item.type === "item_reference")
        throw new InvalidRequestError(
          `input[${index}] is an item_reference, which is not supported for ${request.model}: send the item itself.`,
          { param: `input[${index}].id` },
        );
  const format = request.text?.format?.type;
  if (format !== undefined && format !== "text")
    throw new InvalidRequestError(`text.format "${format}" is not supported for ${request.model} on Bedrock.`, {
      param: "text.format",
    });
  // Warnings of the input translation (reasoning items that cannot be replayed) have nowhere to go on this door.
  const chatRequest: ChatRequest = { model: request.model, messages: convertResponsesInputToMessages(request, []) };
  if (typeof request.temperature === "number") chatRequest.temperature = request.temperature;
  if (typeof request.top_p === "number") chatRequest.top_p = request.top_p;
  if (typeof request.max_output_tokens === "number") chatRequest.max_completion_tokens = request.max_output_tokens;
  const effort = request.reasoning?.effort;
  if (effort === "minimal" || effort === "low" || effort === "medium" || effort === "high")
    chatRequest.reasoning_effort = effort;
  else if (effort !== undefined && effort !== null && effort !== "none")
    throw new InvalidRequestError(`reasoning.effort "${effort}" is not supported on Bedrock.`, {
      param: "reasoning.effort",
    });
  const tools = (request.tools ?? []).map((tool, index): ChatTool => {
    if (tool.type !== "function")
      throw new InvalidRequestError(`tools[${index}].type "${tool.type}" is not supported on Bedrock.`, {
        param: `tools[${index}].type`,
      });
    const functionTool = tool as ResponseFunctionTool;
    const declaration: ChatTool["function"] = { name: functionTool.name };
    if (typeof functionTool.description === "string") declaration.description = functionTool.description;
    if (functionTool.parameters !== undefined && functionTool.parameters !== null)
      declaration.parameters = functionTool.parameters;
    return { type: "function", function: declaration };
  });
  if (tools.length > 0) chatRequest.tools = tools;
  const toolChoice = request.tool_choice;
  if (typeof toolChoice === "string") chatRequest.tool_choice = toolChoice;
  else if (toolChoice?.type === "function" && typeof toolChoice.name === "string")
    chatRequest.tool_choice = { type: "function", function: { name: toolChoice.name } };
  else if (toolChoice !== undefined && toolChoice !== null)
    throw new InvalidRequestError(`tool_choice of type "${toolChoice.type}" is not supported on Bedrock.`, {
      param: "tool_choice",
    });
  return convertChatRequestToConverse(chatRequest, upstreamModel);
}
