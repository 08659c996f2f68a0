import { splitIntoPieces } from "../shared/split-into-pieces.js";
import { splitWords } from "../shared/split-words.js";
import type { ChatMessage, ChatRequest, ChatTool } from "./chat-request.js";
import { countChatPromptTokens } from "./count-chat-prompt-tokens.js";
import { createJsonReply } from "./create-json-reply.js";
import { createToolArguments } from "./create-tool-arguments.js";
import { extractTextContent } from "./extract-text-content.js";

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: {
    reasoning_tokens: number;
    audio_tokens: number;
    accepted_prediction_tokens: number;
    rejected_prediction_tokens: number;
  };
}

export interface ChatReplyPlan {
  reasoningPieces: string[];
  /** Null when the reply is a tool call. */
  contentPieces: string[] | null;
  toolCall: { id: string; name: string; argumentPieces: string[] } | null;
  finishReason: "stop" | "length" | "tool_calls";
  usage: ChatUsage;
}

function findLastUserText(messages: ChatMessage[]): string {
  const lastUser = [...messages].reverse().find((message) => message.role === "user");
  return lastUser ? splitWords(extractTextContent(lastUser.content)).join(" ") : "";
}

/** `[tool:Name {"json": "arguments"}]` in the user's text scripts the call (an agent's tool loop in tests). */
const scriptedTool = /\[tool:([A-Za-z0-9_-]+) (\{.*?\})\]/;

function findScriptedCall(request: ChatRequest, userText: string): { tool: ChatTool; arguments: string } | undefined {
  const scripted = scriptedTool.exec(userText);
  const tool = scripted ? request.tools.find((candidate) => candidate.function.name === scripted[1]) : undefined;
  return tool ? { tool, arguments: scripted![2]! } : undefined;
}

function chooseTool(request: ChatRequest): ChatTool | undefined {
  if (request.tools.length === 0 || request.toolChoice === "none") return undefined;
  const named = (request.toolChoice as { function?: { name?: unknown } } | undefined)?.function?.name;
  return request.tools.find((tool) => tool.function.name === named) ?? request.tools[0];
}

/**
 * Decides the whole reply once, so the JSON body and the stream say exactly the same thing.
 * A completion "token" is one stream piece (a word); reasoning pieces come first and count against the limit.
 */
export function planChatReply(request: ChatRequest, nextToolCallId: () => string): ChatReplyPlan {
  const lastMessage = request.messages[request.messages.length - 1];
  const toolContent =
    lastMessage.role === "tool" ? splitWords(extractTextContent(lastMessage.content)).join(" ") : undefined;
  const userText = findLastUserText(request.messages);
  const subject = toolContent ?? userText;
  const scripted = lastMessage.role === "user" ? findScriptedCall(request, userText) : undefined;
  const tool = scripted?.tool ?? (lastMessage.role === "user" ? chooseTool(request) : undefined);

  const reasoningPieces = request.reasoning ? splitIntoPieces(`Thinking about: ${subject}`.trim()) : [];
  let outputPieces: string[];
  let toolCall: ChatReplyPlan["toolCall"] = null;
  if (tool) {
    outputPieces = splitIntoPieces(scripted?.arguments ?? createToolArguments(tool, userText));
    toolCall = { id: nextToolCallId(), name: tool.function.name, argumentPieces: outputPieces };
  } else {
    const text = (toolContent === undefined ? `Echo: ${userText}` : `Tool result: ${toolContent}`).trim();
    const format = request.responseFormat;
    outputPieces = splitIntoPieces(
      format?.type === "json_object" || format?.type === "json_schema"
        ? createJsonReply(text, format.json_schema?.schema)
        : text,
    );
  }

  const limit = request.maxTokens ?? Number.POSITIVE_INFINITY;
  const keptReasoning = reasoningPieces.slice(0, limit);
  const keptOutput = outputPieces.slice(0, Math.max(0, limit - keptReasoning.length));
  const truncated = keptReasoning.length + keptOutput.length < reasoningPieces.length + outputPieces.length;
  if (toolCall) toolCall.argumentPieces = keptOutput;

  const promptTokens = countChatPromptTokens(request.messages);
  const completionTokens = keptReasoning.length + keptOutput.length;
  return {
    reasoningPieces: keptReasoning,
    contentPieces: toolCall ? null : keptOutput,
    toolCall,
    finishReason: truncated ? "length" : toolCall ? "tool_calls" : "stop",
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: keptReasoning.length,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    },
  };
}
