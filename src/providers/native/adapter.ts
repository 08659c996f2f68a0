import { relayVideoSubmission } from "../../tasks/relay-video-submission.js";
import { nativeVideoTasks } from "./native-video-tasks.js";
import type { ChatToNativeResult } from "./convert-chat-request-to-native.js";
import { convertImageRequestToNative } from "./convert-image-request-to-native.js";
import type { ProviderAdapter } from "../provider-adapter.js";
import { relayNativeChat } from "./relay-native-chat.js";
import { relayNativeEmbed } from "./relay-native-embed.js";
import { relayNativeEmbeddings } from "./relay-native-embeddings.js";
import { relayNativeGenerate } from "./relay-native-generate.js";
import { relayNativeImage } from "./relay-native-image.js";
import { relayNativeVoices } from "./relay-native-voices.js";
import { unsupportedNativeImageForm } from "./unsupported-native-image-form.js";

/**
 * The native multimodal family (`generateContent`, `x-goog-api-key`): native generation and embeddings pass
 * through; OpenAI-style chat, embeddings and images are translated to and from it. Translations that download
 * media are made once per request (input.remember), so a failover does not download them again.
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
  embeddings: (request, input) => relayNativeEmbeddings(request, input),
  images: (call, input, services) => {
    if (call.kind !== "json") throw unsupportedNativeImageForm(call.fields.model ?? "");
    if (call.request.mask !== undefined) throw unsupportedNativeImageForm(call.request.model);
    const translation = input.remember("native-image-translation", () =>
      convertImageRequestToNative({
        request: call.request,
        fetchMedia: services.fetchImage,
        safetySettings: services.safetySettings,
      }),
    );
    return relayNativeImage({ request: call.request, translation, now: services.now }, input);
  },
  nativeGeneration: (call, input) => relayNativeGenerate(call, input.response, input),
  nativeEmbedding: (call, input) => relayNativeEmbed(call, input.response, input),
  nativeVoices: (query, input) => relayNativeVoices(query, input),
} as const satisfies ProviderAdapter;
