export interface ChatToolCall {
  id: string;
  type: string;
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
}

export interface ChatTool {
  type: "function";
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface ChatResponseFormat {
  type: "text" | "json_object" | "json_schema";
  json_schema?: { name?: string; schema?: Record<string, unknown> };
}

/** The parts of a chat completion request the fake acts on, after validation. */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream: boolean;
  includeUsage: boolean;
  /** max_completion_tokens, else max_tokens. */
  maxTokens?: number;
  tools: ChatTool[];
  toolChoice: unknown;
  responseFormat?: ChatResponseFormat;
  reasoning: boolean;
}
