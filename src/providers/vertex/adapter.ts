import { relayAnthropicChat } from "../anthropic/chat/relay-anthropic-chat.js";
import { claudeOutputTokenCap } from "../anthropic/claude-output-token-cap.js";
import { relayAnthropicResponses } from "../anthropic/responses/relay-anthropic-responses.js";
import { relayAnthropicMessages } from "../anthropic/relay-anthropic-messages.js";
import type { ChatToNativeResult } from "../native/chat/convert-chat-request-to-native.js";
import { relayNativeChat } from "../native/chat/relay-native-chat.js";
import { relayNativeGenerate } from "../native/generate/relay-native-generate.js";
import { relayNativeImage } from "../native/images/relay-native-image.js";
import { relayNativeMessages } from "../native/messages/relay-native-messages.js";
import { relayNativeResponses } from "../native/responses/relay-native-responses.js";
import type { ProviderAdapter } from "../contract/provider-adapter.js";
import { vertexTokens } from "./create-vertex-token-cache.js";
import { relayVertexEmbeddings, relayVertexNativeEmbed } from "./embeddings/relay-vertex-embeddings.js";
import { isVertexClaudeModel, vertexClaudeEndpoint } from "./vertex-claude-endpoint.js";
import { vertexEndpoints } from "./vertex-endpoints.js";
import { vertexSettingsShape } from "./vertex-settings.js";
import { withVertexAccess } from "./with-vertex-access.js";

/**
 * Google Vertex AI: the native generateContent protocol under the channel's project and region, authorised by an
 * OAuth access token the gateway gets for the channel's service account (the key is the account's JSON). Every
 * capability is the native adapter's relay function with Vertex's paths and credential, so chat, Responses, images
 * and /v1beta generation reach Vertex as they reach a native channel. Claude models (`claude-…`) are Anthropic's
 * publisher models: chat, Responses and the Messages API reach them with Claude's own translations (rawPredict). Embeddings,
 * OpenAI's door and the native ones, go to the text embedding models' `:predict`.
 */
export const vertexAdapter = {
  type: "vertex",
  settingsShape: vertexSettingsShape,
  // The key is not sent as such: each attempt carries an access token (withVertexAccess).
  credentialHeaders: () => ({}),
  channelCredentialHeaders: async (_channel, key) => ({ authorization: `Bearer ${await vertexTokens.get(key)}` }),
  channelTestRequest: (upstreamModel, channel) => {
    const attempt = { channel, group: "", upstreamModel, upstreamKey: channel.keys[0] ?? "" };
    if (isVertexClaudeModel(upstreamModel))
      return {
        method: "POST",
        path: vertexClaudeEndpoint.path(attempt, false),
        body: vertexClaudeEndpoint.body(
          { max_tokens: 1, messages: [{ role: "user", content: "ping" }] },
          attempt,
          false,
        ),
      };
    return {
      method: "POST",
      path: vertexEndpoints.modelMethod(attempt, upstreamModel, "generateContent"),
      body: { contents: [{ role: "user", parts: [{ text: "ping" }] }], generationConfig: { maxOutputTokens: 1 } },
    };
  },
  chat: (request, input, services) =>
    withVertexAccess(input, (authorized) =>
      isVertexClaudeModel(input.attempt.upstreamModel)
        ? relayAnthropicChat(request, authorized, vertexClaudeEndpoint)
        : relayNativeChat(request, authorized.response, authorized, {
            safetySettings: services.safetySettings,
            fetchMedia: services.fetchMedia,
            logger: services.logger,
            now: services.now,
            translations: input.remember(
              "native-chat-translations",
              () => new Map<string, Promise<ChatToNativeResult>>(),
            ),
            endpoints: vertexEndpoints,
          }),
    ),
  responses: (request, input, services) =>
    withVertexAccess(input, (authorized) =>
      isVertexClaudeModel(input.attempt.upstreamModel)
        ? relayAnthropicResponses(request, authorized, vertexClaudeEndpoint)
        : relayNativeResponses(request, authorized, {
            safetySettings: services.safetySettings,
            fetchMedia: services.fetchMedia,
            logger: services.logger,
            now: services.now,
            translations: input.remember(
              "native-responses-translations",
              () => new Map<string, Promise<ChatToNativeResult>>(),
            ),
            endpoints: vertexEndpoints,
          }),
    ),
  // Claude's translations raise max_tokens above a thinking budget; the hold must cover what they send.
  outputTokenCap: {
    chat: (request, upstreamModel) =>
      isVertexClaudeModel(upstreamModel) ? claudeOutputTokenCap.chat(request, upstreamModel) : undefined,
    responses: (request, upstreamModel) =>
      isVertexClaudeModel(upstreamModel) ? claudeOutputTokenCap.responses(request, upstreamModel) : undefined,
  },
  // Claude models are Anthropic's publisher models (rawPredict, Claude's own protocol); the others are Gemini-style
  // models, reached through the native translation of the Messages API.
  messages: (call, input, services) =>
    withVertexAccess(input, (authorized) =>
      isVertexClaudeModel(input.attempt.upstreamModel)
        ? relayAnthropicMessages(call, authorized, vertexClaudeEndpoint)
        : relayNativeMessages(call, authorized, {
            safetySettings: services.safetySettings,
            fetchMedia: services.fetchMedia,
            logger: services.logger,
            now: services.now,
            translations: input.remember(
              "native-messages-translations",
              () => new Map<string, Promise<ChatToNativeResult>>(),
            ),
            endpoints: vertexEndpoints,
          }),
    ),
  embeddings: (request, input) => withVertexAccess(input, (authorized) => relayVertexEmbeddings(request, authorized)),
  nativeEmbedding: (call, input) => withVertexAccess(input, (authorized) => relayVertexNativeEmbed(call, authorized)),
  images: (call, input, services) =>
    withVertexAccess(input, (authorized) => relayNativeImage(call, authorized, services, vertexEndpoints)),
  nativeGeneration: (call, input) =>
    withVertexAccess(input, (authorized) =>
      relayNativeGenerate(call, authorized.response, authorized, vertexEndpoints),
    ),
} as const satisfies ProviderAdapter;
