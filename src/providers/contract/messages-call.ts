import type { components } from "../../../generated/types/anthropic.js";

export type CreateMessageRequest = components["schemas"]["CreateMessageRequest"];
export type CountTokensRequest = components["schemas"]["CountTokensRequest"];

/**
 * The `messages` capability's call: an Anthropic Messages request as the client sent it (validator defaults left
 * out), and the Anthropic headers it sent, which go on to `anthropic` channels. Other protocols translate the body.
 */
export interface MessagesCall {
  request: CreateMessageRequest;
  /** `anthropic-version` and `anthropic-beta` as the client sent them (lower-case names), when it did. */
  anthropicHeaders: Readonly<Record<string, string>>;
  /** The gateway's estimate of the prompt's input tokens: a translated stream's `message_start` reports it. */
  promptTokenEstimate: number;
}

/** The unbilled `messageTokenCount` read: the prompt of a Messages request and the client's Anthropic headers. */
export interface MessageTokenCountCall {
  request: CountTokensRequest;
  anthropicHeaders: Readonly<Record<string, string>>;
}
