import type { ChannelAttempt } from "../contract/channel-attempt.js";

/**
 * Where Claude's Messages protocol lives for one provider and how its body differs: Claude's own API takes
 * `/v1/messages` with the model in the body; a cloud that hosts Claude (Vertex AI) takes the same body on its own
 * path, the model in the path and its own `anthropic_version` in the body. The anthropic relay functions take one,
 * so a cloud reuses Claude's translations whole.
 */
export interface AnthropicEndpoint {
  /** The upstream path (after the channel's base URL) of one Messages call. */
  path(attempt: ChannelAttempt, stream: boolean): string;
  /** The body as the endpoint takes it, from a Messages body without `model`. */
  body(body: Record<string, unknown>, attempt: ChannelAttempt, stream: boolean): Record<string, unknown>;
  /** Whether the client's `anthropic-version` header goes upstream (a cloud's version is in the body instead). */
  forwardsVersionHeader: boolean;
}

/** Claude's own API. */
export const anthropicOwnEndpoint: AnthropicEndpoint = {
  path: () => "/v1/messages",
  body: (body, attempt) => ({ model: attempt.upstreamModel, ...body }),
  forwardsVersionHeader: true,
};
