/** One item of `input` after normalisation: role plus its text. */
export interface ResponsesInputMessage {
  role: string;
  text: string;
}

/** The parts of a Responses request the fake acts on, after validation. */
export interface ResponsesRequest {
  model: string;
  messages: ResponsesInputMessage[];
  instructions: string | null;
  maxOutputTokens: number | null;
  stream: boolean;
  previousResponseId: string | null;
  reasoning: boolean;
  reasoningEffort: string | null;
  store: boolean;
  temperature: number;
  topP: number;
  metadata: Record<string, unknown>;
}
