import type { ProviderAdapter } from "../contract/provider-adapter.js";
import { bedrockSettingsShape } from "./bedrock-settings.js";
import { relayBedrockEmbeddings } from "./embeddings/relay-bedrock-embeddings.js";
import { relayBedrockMessages } from "./messages/relay-bedrock-messages.js";
import { relayBedrockChat } from "./relay-bedrock-chat.js";
import { relayBedrockResponses } from "./responses/relay-bedrock-responses.js";
import { signBedrockRequest } from "./sign-bedrock-request.js";

const channelTestBody = {
  messages: [{ role: "user", content: [{ text: "ping" }] }],
  inferenceConfig: { maxTokens: 1 },
};

/**
 * AWS Bedrock Runtime: chat completions and Responses translated to the Converse API and back, Anthropic's Messages API passed to
 * Claude models and embeddings (Titan, Cohere) through InvokeModel, every request
 * signed with Signature Version 4 for the channel's region (or a Bedrock API key as Bearer). The key is never a
 * header as it is: each request is signed on its own.
 */
export const bedrockAdapter = {
  type: "bedrock",
  settingsShape: bedrockSettingsShape,
  credentialHeaders: () => ({}),
  channelCredentialHeaders: async (channel, key, request) =>
    signBedrockRequest({
      baseUrl: channel.baseUrl,
      path: request.path,
      body: JSON.stringify(request.body ?? {}),
      region: channel.settings.region ?? "",
      key,
      headers: { "content-type": "application/json", accept: "application/json" },
    }),
  // One word in, one token out: the cheapest Converse call that proves the credentials, region and model.
  channelTestRequest: (upstreamModel) => ({
    method: "POST",
    path: `/model/${encodeURIComponent(upstreamModel)}/converse`,
    body: channelTestBody,
  }),
  chat: (request, input) => relayBedrockChat(request, input),
  responses: (request, input) => relayBedrockResponses(request, input),
  messages: (call, input) => relayBedrockMessages(call, input),
  embeddings: (request, input) => relayBedrockEmbeddings(request, input),
} as const satisfies ProviderAdapter;
