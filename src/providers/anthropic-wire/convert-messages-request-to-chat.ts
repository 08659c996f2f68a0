import { InvalidRequestError } from "../../errors/gateway-error.js";
import type { CreateMessageRequest } from "../contract/messages-call.js";

type ContentBlock = Exclude<CreateMessageRequest["messages"][number]["content"], string>[number];
type ChatContentPart = Record<string, unknown>;
type ChatMessage = Record<string, unknown>;

/**
 * Anthropic's thinking budget as OpenAI's reasoning effort: the same steps the gateway uses the other way
 * (low 1,024, medium 2,048, high 4,096 budget tokens).
 */
export function thinkingBudgetToEffort(budgetTokens: number): "low" | "medium" | "high" {
  if (budgetTokens >= 4096) return "high";
  if (budgetTokens >= 2048) return "medium";
  return "low";
}

/**
 * A Messages request → a chat completions body for an OpenAI-compatible channel. The system prompt, and the text
 * of any `system` turn, leads as one system message; text, image (base64 or URL) and PDF document blocks become content parts; an assistant turn's
 * `tool_use` blocks its `tool_calls` and its thinking its `reasoning_content`; `tool_result` blocks become `tool`
 * messages placed before the rest of their user turn. Custom tools become functions, `tool_choice` maps to its
 * OpenAI form, a thinking budget to `reasoning_effort`, `stop_sequences` to `stop`, `metadata.user_id` to `user`.
 * What chat completions cannot carry is refused (server tools, URL documents, unknown block types); Anthropic-only
 * settings without an equivalent (`top_k`, cache breakpoints, signatures, beta fields) are left out.
 */
export function convertMessagesRequestToChat(request: CreateMessageRequest, upstreamModel: string): ChatMessage {
  const messages: ChatMessage[] = [];
  const systemTexts =
    typeof request.system === "string" ? [request.system] : (request.system ?? []).map((block) => block.text);
  request.messages.forEach((message, messageIndex) => {
    const blocks: ContentBlock[] =
      typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    if (message.role === "assistant") messages.push(convertAssistantTurn(blocks, messageIndex));
    // Many OpenAI-compatible upstreams take system text only first: system turns join the leading system message.
    else if (message.role === "system")
      systemTexts.push(...blocks.map((block) => (block as { text?: string }).text ?? ""));
    else messages.push(...convertUserTurn(blocks, messageIndex));
  });
  const system = systemTexts.filter((text) => text !== "").join("\n\n");
  if (system) messages.unshift({ role: "system", content: system });

  const body: ChatMessage = { model: upstreamModel, messages, max_tokens: request.max_tokens };
  if (request.stream === true) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.top_p !== undefined) body.top_p = request.top_p;
  if (request.stop_sequences?.length) body.stop = request.stop_sequences;
  if (typeof request.metadata?.user_id === "string") body.user = request.metadata.user_id;
  if (request.tools?.length) {
    body.tools = request.tools.map((tool, index) => {
      if (tool.type !== undefined && tool.type !== null && tool.type !== "custom")
        throw new InvalidRequestError(
          `tools.${index}: the server tool ${tool.type} is served only by Claude channels, not by this model's channel.`,
          { param: `tools.${index}.type` },
        );
      return {
        type: "function",
        function: {
          name: tool.name,
          ...(tool.description !== undefined ? { description: tool.description } : {}),
          parameters: tool.input_schema ?? { type: "object", properties: {} },
        },
      };
    });
  }
  const choice = request.tool_choice;
  if (choice) {
    if (choice.type === "auto") body.tool_choice = "auto";
    else if (choice.type === "any") body.tool_choice = "required";
    else if (choice.type === "none") body.tool_choice = "none";
    else if (choice.type === "tool") body.tool_choice = { type: "function", function: { name: choice.name } };
    if (choice.disable_parallel_tool_use === true && request.tools?.length) body.parallel_tool_calls = false;
  }
  if (request.thinking?.type === "enabled" && typeof request.thinking.budget_tokens === "number")
    body.reasoning_effort = thinkingBudgetToEffort(request.thinking.budget_tokens);
  return body;
}

function convertAssistantTurn(blocks: ContentBlock[], messageIndex: number): ChatMessage {
  let text = "";
  let reasoning = "";
  const toolCalls: ChatMessage[] = [];
  blocks.forEach((block, blockIndex) => {
    switch (block.type) {
      case "text":
        text += (block as { text: string }).text;
        break;
      case "thinking":
        reasoning += (block as { thinking: string }).thinking;
        break;
      case "redacted_thinking":
        break;
      case "tool_use": {
        const toolUse = block as { id: string; name: string; input: unknown };
        toolCalls.push({
          id: toolUse.id,
          type: "function",
          function: { name: toolUse.name, arguments: JSON.stringify(toolUse.input ?? {}) },
        });
        break;
      }
      default:
        throw unsupportedBlock(block, messageIndex, blockIndex);
    }
  });
  const message: ChatMessage = { role: "assistant", content: text === "" && toolCalls.length > 0 ? null : text };
  if (reasoning) message.reasoning_content = reasoning;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return message;
}

function convertUserTurn(blocks: ContentBlock[], messageIndex: number): ChatMessage[] {
  const toolMessages: ChatMessage[] = [];
  const parts: ChatContentPart[] = [];
  blocks.forEach((block, blockIndex) => {
    if (block.type === "tool_result") {
      const result = block as { tool_use_id: string; content?: string | ContentBlock[]; is_error?: boolean };
      const inner: ContentBlock[] =
        typeof result.content === "string" ? [{ type: "text", text: result.content }] : (result.content ?? []);
      const texts: string[] = [];
      inner.forEach((part, partIndex) => {
        // Images a tool returned cannot ride in a tool message: they follow in the user turn.
        if (part.type === "text") texts.push((part as { text: string }).text);
        else parts.push(convertUserPart(part, messageIndex, partIndex));
      });
      const content = texts.join("\n");
      toolMessages.push({
        role: "tool",
        tool_call_id: result.tool_use_id,
        // Chat completions has no error flag on a tool result: the model is told in the text.
        content: result.is_error === true ? `Error: ${content}` : content,
      });
      return;
    }
    parts.push(convertUserPart(block, messageIndex, blockIndex));
  });
  if (parts.length === 0) return toolMessages;
  const onlyText = parts.every((part) => part.type === "text");
  const content = onlyText ? parts.map((part) => part.text as string).join("\n") : parts;
  return [...toolMessages, { role: "user", content }];
}

function convertUserPart(block: ContentBlock, messageIndex: number, blockIndex: number): ChatContentPart {
  const source = (block as { source?: { type?: string; media_type?: string; data?: string; url?: string } }).source;
  switch (block.type) {
    case "text":
      return { type: "text", text: (block as { text: string }).text };
    case "image":
      if (source?.type === "base64")
        return { type: "image_url", image_url: { url: `data:${source.media_type};base64,${source.data}` } };
      if (source?.type === "url") return { type: "image_url", image_url: { url: source.url } };
      break;
    case "document":
      if (source?.type === "base64")
        return {
          type: "file",
          file: { filename: "document.pdf", file_data: `data:${source.media_type};base64,${source.data}` },
        };
      if (source?.type === "text") return { type: "text", text: source.data ?? "" };
      break;
  }
  throw unsupportedBlock(block, messageIndex, blockIndex);
}

function unsupportedBlock(block: ContentBlock, messageIndex: number, blockIndex: number): InvalidRequestError {
  const source = (block as { source?: { type?: string } }).source?.type;
  const what = source ? `a ${block.type} block with a ${source} source` : `a ${block.type} block`;
  return new InvalidRequestError(
    `messages.${messageIndex}.content.${blockIndex}: ${what} is served only by Claude channels, not by this model's channel.`,
    { param: `messages.${messageIndex}.content.${blockIndex}` },
  );
}
