import type { ProviderAdapter } from "../contract/provider-adapter.js";
import { defaultAnthropicVersion } from "./anthropic-headers.js";
import { claudeOutputTokenCap } from "./claude-output-token-cap.js";
import { relayAnthropicChat } from "./chat/relay-anthropic-chat.js";
import { relayAnthropicMessages } from "./relay-anthropic-messages.js";
import { relayAnthropicResponses } from "./responses/relay-anthropic-responses.js";
import { relayAnthropicTokenCount } from "./relay-anthropic-token-count.js";

/**
 * Claude's own protocol (`/v1/messages`, the key in `x-api-key`, `anthropic-version` on every call): Messages requests
 * pass through, token counts come from its count_tokens endpoint, and chat completions and Responses are translated to
 * it.
 */
export const anthropicAdapter = {
  type: "anthropic",
  credentialHeaders: (key) => ({ "x-api-key": key, "anthropic-version": defaultAnthropicVersion }),
  // One short message, one output token: the cheapest call that proves the key, the base URL and the model.
  channelTestRequest: (upstreamModel) => ({
    method: "POST",
    path: "/v1/messages",
    body: { model: upstreamModel, max_tokens: 1, messages: [{ role: "user", content: "ping" }] },
  }),
  messages: (call, input) => relayAnthropicMessages(call, input),
  chat: (request, input) => relayAnthropicChat(request, input),
  responses: (request, input) => relayAnthropicResponses(request, input),
  messageTokenCount: (call, input) => relayAnthropicTokenCount(call, input),
  outputTokenCap: claudeOutputTokenCap,
} as const satisfies ProviderAdapter;
