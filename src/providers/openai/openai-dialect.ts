import type { ChannelAttempt } from "../contract/channel-attempt.js";

/** An operation of the OpenAI API, named by its path after the API's root (`/v1/` on OpenAI itself). */
export type OpenaiOperation =
  | "chat/completions"
  | "responses"
  | "embeddings"
  | "images/generations"
  | "images/edits"
  | "audio/speech"
  | "audio/transcriptions"
  | "audio/translations";

/**
 * How one provider serving the OpenAI API differs from OpenAI's own: where each operation lives for a channel, and
 * what its answers carry that OpenAI clients do not expect. The openai relay functions take one, so a provider of
 * the same API (Azure OpenAI) reuses them whole with its own paths.
 */
export interface OpenaiDialect {
  /** The upstream path and query of one operation on one attempt's channel (after the channel's base URL). */
  path(operation: OpenaiOperation, attempt: ChannelAttempt): string;
  /**
   * Removes the provider's own fields from a JSON answer or stream chunk (in place); false when nothing of the
   * object is left for the client (a stream chunk that only carried the provider's fields is then not sent).
   */
  cleanAnswer?(answer: Record<string, unknown>): boolean;
}

/** OpenAI's own API and the many upstreams that copy it: every operation under `/v1/`, answers as they come. */
export const openaiDialect: OpenaiDialect = {
  path: (operation) => `/v1/${operation}`,
};
