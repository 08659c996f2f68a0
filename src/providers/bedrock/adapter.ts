import type { ProviderAdapter } from "../contract/provider-adapter.js";
import { bedrockSettingsShape } from "./bedrock-settings.js";
import { relayBedrockChat } from "./relay-bedrock-chat.js";
import { signBedrockRequest } from "./sign-bedrock-request.js";

const channelTestBody = {
  messages: [{ role: "user", content: [{ text: "ping" }] }],
  inferenceConfig: { maxTokens: 1 },
};

/**
 * AWS Bedrock Runtime through the Converse API: chat completions translated to Converse and back, every request
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
} as const satisfies ProviderAdapter;
