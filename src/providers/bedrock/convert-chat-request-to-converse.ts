import type { components } from "../../../generated/types/openai.js";
import { InvalidRequestError } from "../../errors/gateway-error.js";
import { parseDataUri } from "../../net/parse-data-uri.js";
import type { ConverseContentBlock, ConverseMessage, ConverseRequest } from "./converse-types.js";

type ChatRequest = components["schemas"]["CreateChatCompletionRequest"];
type ChatMessage = ChatRequest["messages"][number];

/** Thinking budgets for `reasoning_effort` on models that think through `additionalModelRequestFields`. */
const thinkingBudgets = { minimal: 1024, low: 2048, medium: 8192, high: 24576 } as const;

const imageFormats = new Map([
  ["image/png", "png"],
  ["image/jpeg", "jpeg"],
  ["image/jpg", "jpeg"],
  ["image/gif", "gif"],
  ["image/webp", "webp"],
] as const);

/**
 * A chat completion request → the Converse API. System messages become `system`; the turns alternate user and
 * assistant as Converse requires (tool results are user turns, adjacent turns of one role are merged); images go as
 * bytes (data URIs); tools as tool specs with `toolChoice`; `stop` as stop sequences; `reasoning_effort` as a
 * thinking budget in `additionalModelRequestFields` for models that think (Claude).
 */
export function convertChatRequestToConverse(request: ChatRequest, upstreamModel: string): ConverseRequest {
  const system: Array<{ text: string }> = [];
  const messages: ConverseMessage[] = [];
  const push = (role: ConverseMessage["role"], blocks: ConverseContentBlock[]) => {
    if (blocks.length === 0) return;
    const last = messages.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  request.messages.forEach((message, index) => {
    const path = `messages[${index}]`;
    switch (message.role) {
      case "system":
      case "developer":
        system.push(...textBlocks(message.content, path));
        return;
      case "user":
        push("user", userBlocks(message.content, path));
        return;
      case "assistant":
        push("assistant", assistantBlocks(message, path));
        return;
      case "tool":
        push("user", [
          {
            toolResult: {
              toolUseId: message.tool_call_id,
              content: textBlocks(message.content, `${path}.content`),
            },
          },
        ]);
        return;
      default:
        throw new InvalidRequestError(`${path}.role "${(message as { role: string }).role}" is not supported here.`, {
          param: `${path}.role`,
        });
    }
  });
  const converse: ConverseRequest = { messages };
  if (system.length > 0) converse.system = system;
  const inference: NonNullable<ConverseRequest["inferenceConfig"]> = {};
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (typeof maxTokens === "number") inference.maxTokens = maxTokens;
  if (typeof request.temperature === "number") inference.temperature = request.temperature;
  if (typeof request.top_p === "number") inference.topP = request.top_p;
  if (request.stop) inference.stopSequences = typeof request.stop === "string" ? [request.stop] : request.stop;
  if (Object.keys(inference).length > 0) converse.inferenceConfig = inference;
  const tools = (request.tools ?? []).flatMap((tool) =>
    tool.type === "function"
      ? [
          {
            toolSpec: {
              name: tool.function.name,
              ...(tool.function.description ? { description: tool.function.description } : {}),
              inputSchema: { json: tool.function.parameters ?? { type: "object", properties: {} } },
            },
          },
        ]
      : [],
  );
  const choice = request.tool_choice;
  if (tools.length > 0 && choice !== "none") {
    converse.toolConfig = { tools };
    if (choice === "required") converse.toolConfig.toolChoice = { any: {} };
    else if (choice === "auto") converse.toolConfig.toolChoice = { auto: {} };
    else if (typeof choice === "object" && choice !== null && "function" in choice)
      converse.toolConfig.toolChoice = { tool: { name: choice.function.name } };
  }
  const effort = request.reasoning_effort;
  if (effort && effort !== "none" && /anthropic\.|claude/.test(upstreamModel)) {
    // The value belongs to the provider; a translated channel takes only the levels it can turn into a budget.
    if (!Object.hasOwn(thinkingBudgets, effort))
      throw new InvalidRequestError(
        `reasoning_effort "${effort}" is not supported on a Bedrock channel (${Object.keys(thinkingBudgets).join(", ")}, none).`,
        { param: "reasoning_effort" },
      );
    const budget = thinkingBudgets[effort as keyof typeof thinkingBudgets];
    converse.additionalModelRequestFields = { thinking: { type: "enabled", budget_tokens: budget } };
  }
  return converse;
}

function textBlocks(content: unknown, path: string): Array<{ text: string }> {
  if (typeof content === "string") return content === "" ? [] : [{ text: content }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: { type?: string; text?: string }, index) => {
    if (part.type === "text" && typeof part.text === "string") return part.text === "" ? [] : [{ text: part.text }];
    throw new InvalidRequestError(`${path}[${index}] must be text.`, { param: `${path}[${index}]` });
  });
}

function userBlocks(content: unknown, path: string): ConverseContentBlock[] {
  if (typeof content === "string" || !Array.isArray(content)) return textBlocks(content, `${path}.content`);
  return content.flatMap((part: { type?: string; text?: string; image_url?: { url?: string } }, index) => {
    const blocks: ConverseContentBlock[] = [];
    const partPath = `${path}.content[${index}]`;
    if (part.type === "text") {
      if (typeof part.text === "string" && part.text !== "") blocks.push({ text: part.text });
      return blocks;
    }
    if (part.type === "image_url") {
      const parsed = parseDataUri(part.image_url?.url ?? "");
      const format = parsed ? imageFormats.get(parsed.mimeType as never) : undefined;
      if (!parsed || !format)
        throw new InvalidRequestError(
          `${partPath}.image_url.url must be a data URI of a PNG, JPEG, GIF or WebP image on a Bedrock channel.`,
          { param: `${partPath}.image_url.url` },
        );
      blocks.push({ image: { format, source: { bytes: parsed.data } } });
      return blocks;
    }
    throw new InvalidRequestError(`${partPath}.type "${String(part.type)}" is not supported on a Bedrock channel.`, {
      param: `${partPath}.type`,
    });
  });
}

function assistantBlocks(message: Extract<ChatMessage, { role: "assistant" }>, path: string): ConverseContentBlock[] {
  const blocks: ConverseContentBlock[] = textBlocks(message.content ?? "", `${path}.content`);
  for (const [index, call] of (message.tool_calls ?? []).entries()) {
    if (call.type !== "function") continue;
    let input: unknown;
    try {
      input = JSON.parse(call.function.arguments || "{}");
    } catch {
      throw new InvalidRequestError(`${path}.tool_calls[${index}].function.arguments is not JSON.`, {
        param: `${path}.tool_calls[${index}].function.arguments`,
      });
    }
    blocks.push({ toolUse: { toolUseId: call.id, name: call.function.name, input } });
  }
  return blocks;
}
