import type { IdSequence } from "../shared/create-id-sequence.js";
import { splitIntoPieces } from "../shared/split-into-pieces.js";
import { splitWords } from "../shared/split-words.js";
import type { ResponsesRequest } from "./responses-request.js";

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export interface ResponseReplyPlan {
  id: string;
  /** Unix seconds. */
  createdAt: number;
  reasoningItemId: string | null;
  messageItemId: string;
  textPieces: string[];
  /** True when max_output_tokens cut the reply (status `incomplete`). */
  incomplete: boolean;
  usage: ResponsesUsage;
}

/**
 * Decides a Responses reply. input_tokens = 3 per input item (and for instructions) plus their words, plus the
 * whole previous turn (its input and output tokens), which is also reported as cached_tokens.
 * Reasoning is hidden (a reasoning item with an empty summary) but its words count as reasoning tokens.
 */
export function planResponseReply(
  request: ResponsesRequest,
  previous: ResponsesUsage | undefined,
  ids: IdSequence,
  createdAt: number,
): ResponseReplyPlan {
  const id = ids.next("resp_fake");
  const lastUser = [...request.messages]
    .reverse()
    .find((message) => message.role === "user" || message.role === "tool");
  const subject = splitWords(lastUser?.text ?? "").join(" ");
  const reply = `Echo: ${subject}`.trim();
  const text = request.previousResponseId ? `${reply} (after ${request.previousResponseId})` : reply;

  const reasoningTokens = request.reasoning ? splitWords(`Thinking about: ${subject}`).length : 0;
  const textPieces = splitIntoPieces(text);
  const limit = request.maxOutputTokens ?? Number.POSITIVE_INFINITY;
  const keptReasoning = Math.min(reasoningTokens, limit);
  const keptPieces = textPieces.slice(0, Math.max(0, limit - keptReasoning));

  const carried = previous ? previous.input_tokens + previous.output_tokens : 0;
  const ownInput =
    request.messages.reduce((total, message) => total + 3 + splitWords(message.text).length, 0) +
    (request.instructions === null ? 0 : 3 + splitWords(request.instructions).length);
  const inputTokens = ownInput + carried;
  const outputTokens = keptReasoning + keptPieces.length;
  return {
    id,
    createdAt,
    reasoningItemId: request.reasoning ? ids.next("rs_fake") : null,
    messageItemId: ids.next("msg_fake"),
    textPieces: keptPieces,
    incomplete: keptReasoning + keptPieces.length < reasoningTokens + textPieces.length,
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: carried },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: keptReasoning },
      total_tokens: inputTokens + outputTokens,
    },
  };
}
