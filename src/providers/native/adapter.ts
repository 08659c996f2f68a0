import { relayVideoSubmission } from "../../upstream/relay-video-submission.js";
import { nativeVideoTasks } from "./video/native-video-tasks.js";
import type { ChatToNativeResult } from "./chat/convert-chat-request-to-native.js";
import type { ProviderAdapter } from "../contract/provider-adapter.js";
import { relayNativeChat } from "./chat/relay-native-chat.js";
import { relayNativeEmbed } from "./embeddings/relay-native-embed.js";
import { relayNativeEmbeddings } from "./embeddings/relay-native-embeddings.js";
import { relayNativeGenerate } from "./generate/relay-native-generate.js";
import { relayNativeImage } from "./images/relay-native-image.js";
import { relayNativeMessages } from "./messages/relay-native-messages.js";
import { relayNativeResponses } from "./responses/relay-native-responses.js";
import { relayNativeCountTokens } from "./generate/relay-native-count-tokens.js";
import { relayNativeVoices } from "./voices/relay-native-voices.js";

/**
 * The native multimodal family (`generateContent`, `x-goog-api-key`): native generation and embeddings pass through;
 * OpenAI-style chat, Responses, embeddings and images, and Anthropic's Messages, are translated to and from it.
 * Translations that download media are made once per request (input.remember), so a failover does not download them
 * again.
 */
export const nativeAdapter = {
  type: "native",
  videoTasks: nativeVideoTasks,
  videoSubmission: (call, input) => relayVideoSubmission(nativeVideoTasks, call, input),
  credentialHeaders: (key) => ({ "x-goog-api-key": key }),
  // One short message, one output token: the cheapest call that proves the key, the base URL and the model.
  channelTestRequest: (upstreamModel) => ({
    method: "POST",
    path: `/v1beta/models/${encodeURIComponent(upstreamModel)}:generateContent`,
    body: { contents: [{ role: "user", parts: [{ text: "ping" }] }], generationConfig: { maxOutputTokens: 1 } },
  }),
  chat: (request, input, services) =>
    relayNativeChat(request, input.response, input, {
      safetySettings: services.safetySettings,
      fetchMedia: services.fetchMedia,
      logger: services.logger,
      now: services.now,
      translations: input.remember("native-chat-translations", () => new Map<string, Promise<ChatToNativeResult>>()),
    }),
  responses: (request, input, services) =>
    relayNativeResponses(request, input, {
      safetySettings: services.safetySettings,
      fetchMedia: services.fetchMedia,
      logger: services.logger,
      now: services.now,
      translations: input.remember(
        "native-responses-translations",
        () => new Map<string, Promise<ChatToNativeResult>>(),
      ),
    }),
  messages: (call, input, services) =>
    relayNativeMessages(call, input, {
      safetySettings: services.safetySettings,
      fetchMedia: services.fetchMedia,
      logger: services.logger,
      now: services.now,
      translations: input.remember(
        "native-messages-translations",
        () => new Map<string, Promise<ChatToNativeResult>>(),
      ),
    }),
  embeddings: (request, input) => relayNativeEmbeddings(request, input),
  images: (call, input, services) => relayNativeImage(call, input, services),
  nativeGeneration: (call, input) => relayNativeGenerate(call, input.response, input),
  nativeEmbedding: (call, input) => relayNativeEmbed(call, input.response, input),
  nativeVoices: (query, input) => relayNativeVoices(query, input),
  nativeCountTokens: (request, input) => relayNativeCountTokens(request, input),
} as const satisfies ProviderAdapter;
