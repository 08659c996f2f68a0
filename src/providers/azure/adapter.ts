import type { ProviderAdapter } from "../contract/provider-adapter.js";
import { relayOpenaiMessages } from "../openai/messages/relay-openai-messages.js";
import { relayOpenaiEmbeddings } from "../openai/embeddings/relay-openai-embeddings.js";
import { relayOpenaiImage } from "../openai/images/relay-openai-image.js";
import { relayOpenaiResponses } from "../openai/responses/relay-openai-responses.js";
import { relayOpenaiSpeech } from "../openai/speech/relay-openai-speech.js";
import { relayOpenaiTranscription } from "../openai/transcription/relay-openai-transcription.js";
import { azureDialect } from "./azure-dialect.js";
import { azureSettingsShape } from "./azure-settings.js";
import { relayAzureChat } from "./relay-azure-chat.js";

/**
 * Azure OpenAI: the OpenAI API on Azure's paths (deployments and an api-version, or the v1 surface), the key in the
 * `api-key` header. Every capability is the openai adapter's relay function with Azure's dialect; chat adds the
 * content filter's refusal of a prompt. Anthropic's Messages API is translated to chat completions as on
 * openai channels. The deployment is the channel's mapped model name.
 */
export const azureAdapter = {
  type: "azure",
  settingsShape: azureSettingsShape,
  credentialHeaders: (key) => ({ "api-key": key }),
  // One short message, one output token, on the channel's own api version: proves key, resource and deployment.
  channelTestRequest: (upstreamModel, channel) => ({
    method: "POST",
    path: azureDialect.path("chat/completions", { channel, upstreamModel, group: "", upstreamKey: "" }),
    body: { model: upstreamModel, messages: [{ role: "user", content: "ping" }], max_tokens: 1 },
  }),
  chat: (request, input) => relayAzureChat(request, input.response, input),
  responses: (request, input) => relayOpenaiResponses(request, input.response, input, azureDialect),
  embeddings: (request, input) => relayOpenaiEmbeddings(request, input.response, input, azureDialect),
  images: (call, input, services) => relayOpenaiImage(call, input, services, azureDialect),
  speech: (request, input) => relayOpenaiSpeech(request, input.response, input, azureDialect),
  transcription: (call, input) => relayOpenaiTranscription(call, input, azureDialect),
  messages: (call, input) => relayOpenaiMessages(call, input, azureDialect),
} as const satisfies ProviderAdapter;
