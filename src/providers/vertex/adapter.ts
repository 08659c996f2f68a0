import type { ChatToNativeResult } from "../native/convert-chat-request-to-native.js";
import { relayNativeChat } from "../native/relay-native-chat.js";
import { relayNativeGenerate } from "../native/relay-native-generate.js";
import { relayNativeImage } from "../native/relay-native-image.js";
import { relayNativeResponses } from "../native/relay-native-responses.js";
import type { ProviderAdapter } from "../contract/provider-adapter.js";
import { vertexTokens } from "./create-vertex-token-cache.js";
import { vertexEndpoints } from "./vertex-endpoints.js";
import { vertexSettingsShape } from "./vertex-settings.js";
import { withVertexAccess } from "./with-vertex-access.js";

/**
 * Google Vertex AI: the native generateContent protocol under the channel's project and region, authorised by an
 * OAuth access token the gateway gets for the channel's service account (the key is the account's JSON). Every
 * capability is the native adapter's relay function with Vertex's paths and credential, so chat, Responses, images
 * and /v1beta generation reach Vertex as they reach a native channel.
 */
export const vertexAdapter = {
  type: "vertex",
  settingsShape: vertexSettingsShape,
  // The key is not sent as such: each attempt carries an access token (withVertexAccess).
  credentialHeaders: () => ({}),
  channelCredentialHeaders: async (_channel, key) => ({ authorization: `Bearer ${await vertexTokens.get(key)}` }),
  channelTestRequest: (upstreamModel, channel) => ({
    method: "POST",
    path: vertexEndpoints.modelMethod(
      { channel, group: "", upstreamModel, upstreamKey: channel.keys[0] ?? "" },
      upstreamModel,
      "generateContent",
    ),
    body: { contents: [{ role: "user", parts: [{ text: "ping" }] }], generationConfig: { maxOutputTokens: 1 } },
  }),
  chat: (request, input, services) =>
    withVertexAccess(input, (authorized) =>
      relayNativeChat(request, authorized.response, authorized, {
        safetySettings: services.safetySettings,
        fetchMedia: services.fetchMedia,
        logger: services.logger,
        now: services.now,
        translations: input.remember("native-chat-translations", () => new Map<string, Promise<ChatToNativeResult>>()),
        endpoints: vertexEndpoints,
      }),
    ),
  responses: (request, input, services) =>
    withVertexAccess(input, (authorized) =>
      relayNativeResponses(request, authorized, {
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
  images: (call, input, services) =>
    withVertexAccess(input, (authorized) => relayNativeImage(call, authorized, services, vertexEndpoints)),
  nativeGeneration: (call, input) =>
    withVertexAccess(input, (authorized) =>
      relayNativeGenerate(call, authorized.response, authorized, vertexEndpoints),
    ),
} as const satisfies ProviderAdapter;
