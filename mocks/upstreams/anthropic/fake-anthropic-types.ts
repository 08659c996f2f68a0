/** The Messages request as the fake reads it: loosely typed, checked by validate-message-request.ts. */
export interface FakeContentBlock {
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: string | FakeContentBlock[];
  is_error?: boolean;
  cache_control?: unknown;
  [field: string]: unknown;
}

export interface FakeMessage {
  role: "user" | "assistant" | "system";
  content: string | FakeContentBlock[];
}

export interface FakeTool {
  type?: string;
  name: string;
  description?: string;
  input_schema?: { properties?: Record<string, { type?: string }>; required?: string[] };
  cache_control?: unknown;
}

export interface FakeMessageRequest {
  model: string;
  max_tokens: number;
  messages: FakeMessage[];
  system?: string | FakeContentBlock[];
  tools?: FakeTool[];
  tool_choice?: { type: string; name?: string };
  thinking?: { type: string; budget_tokens?: number };
  stop_sequences?: string[];
  stream?: boolean;
}

export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}
