/** What the fake answers to a Converse request: deterministic, so tests can assert text, tools and usage. */
export interface ConverseReply {
  blocks: Array<{ text: string } | { toolUse: { toolUseId: string; name: string; input: Record<string, unknown> } }>;
  stopReason: string;
  usage: {
    inputTokens: number;
    outputTokens: number;
    totalTokens: number;
    cacheReadInputTokens?: number;
    cacheWriteInputTokens?: number;
  };
}

interface Block {
  text?: string;
  toolResult?: { content?: Array<{ text?: string }> };
  image?: unknown;
}
interface Request {
  messages?: Array<{ role?: string; content?: Block[] }>;
  system?: Array<{ text?: string }>;
  inferenceConfig?: { maxTokens?: number; stopSequences?: string[] };
  toolConfig?: {
    tools?: Array<{ toolSpec?: { name?: string; inputSchema?: { json?: { required?: string[] } } } }>;
    toolChoice?: { tool?: { name?: string } };
  };
}

const words = (text: string) => text.split(/\s+/).filter(Boolean);

/**
 * Rules: input tokens are Σ (3 + words) over messages plus the system's words (an image counts 10); the reply is
 * `Echo: <last user text>` (`Tool result: <text>` after a tool result, `Images: N` with images); with tools and a
 * user turn last, a tool use of the named or first tool whose first required field holds the user's text. A system
 * prompt containing `[cached]` reports 4 cache-read and 2 cache-write tokens. maxTokens cuts the reply
 * (`max_tokens`); a stop sequence among its words stops it before (`stop_sequence`).
 */
export function planConverseReply(request: Request): ConverseReply {
  const messages = request.messages ?? [];
  let inputTokens = 0;
  for (const message of messages) {
    inputTokens += 3;
    for (const block of message.content ?? []) {
      inputTokens += words(block.text ?? "").length;
      inputTokens += words((block.toolResult?.content ?? []).map((part) => part.text ?? "").join(" ")).length;
      if (block.image) inputTokens += 10;
    }
  }
  const systemText = (request.system ?? []).map((part) => part.text ?? "").join(" ");
  inputTokens += words(systemText).length;
  const last = messages.at(-1)?.content ?? [];
  const toolResult = last.find((block) => block.toolResult)?.toolResult;
  const userText = last
    .map((block) => block.text ?? "")
    .join(" ")
    .trim();
  const images = last.filter((block) => block.image).length;
  const cache = systemText.includes("[cached]") ? { cacheReadInputTokens: 4, cacheWriteInputTokens: 2 } : {};
  const tools = request.toolConfig?.tools ?? [];
  if (tools.length > 0 && !toolResult) {
    const named = request.toolConfig?.toolChoice?.tool?.name;
    const tool = tools.find((candidate) => candidate.toolSpec?.name === named) ?? tools[0]!;
    const field = tool.toolSpec?.inputSchema?.json?.required?.[0];
    const input = field ? { [field]: userText } : {};
    const outputTokens = 5 + words(userText).length;
    return {
      blocks: [{ toolUse: { toolUseId: "tooluse_fake000001", name: tool.toolSpec?.name ?? "tool", input } }],
      stopReason: "tool_use",
      usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, ...cache },
    };
  }
  let reply = toolResult
    ? words(`Tool result: ${(toolResult.content ?? []).map((part) => part.text ?? "").join(" ")}`)
    : words(images > 0 ? `Images: ${images} ${userText}` : `Echo: ${userText}`);
  let stopReason = "end_turn";
  const stopAt = reply.findIndex((word) => request.inferenceConfig?.stopSequences?.includes(word));
  if (stopAt >= 0) {
    reply = reply.slice(0, stopAt);
    stopReason = "stop_sequence";
  }
  const maxTokens = request.inferenceConfig?.maxTokens;
  if (maxTokens !== undefined && reply.length > maxTokens) {
    reply = reply.slice(0, maxTokens);
    stopReason = "max_tokens";
  }
  return {
    blocks: [{ text: reply.join(" ") }],
    stopReason,
    usage: { inputTokens, outputTokens: reply.length, totalTokens: inputTokens + reply.length, ...cache },
  };
}
