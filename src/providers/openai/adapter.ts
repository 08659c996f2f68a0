import type { ProviderAdapter } from "../contract/provider-adapter.js";
import { relayVideoSubmission } from "../../upstream/relay-video-submission.js";
import { openaiVideoTasks } from "./video/openai-video-tasks.js";
import { relayOpenaiChat } from "./chat/relay-openai-chat.js";
import { relayOpenaiEmbeddings } from "./embeddings/relay-openai-embeddings.js";
import { relayOpenaiImage } from "./images/relay-openai-image.js";
import { relayOpenaiMessages } from "./messages/relay-openai-messages.js";
import { relayOpenaiResponses } from "./responses/relay-openai-responses.js";
import { relayOpenaiSpeech } from "./speech/relay-openai-speech.js";
import { relayOpenaiTranscription } from "./transcription/relay-openai-transcription.js";

/**
 * OpenAI-compatible upstreams (`/v1/...`, `Authorization: Bearer`): every OpenAI-style capability passes through
 * with the channel's model name. The methods are arrows so that the relay functions are looked up at call time
 * (the registry and the relay import each other).
 */
export const openaiAdapter = {
  type: "openai",
  credentialHeaders: (key) => ({ authorization: `Bearer ${key}` }),
  // One short message, one output token: the cheapest call that proves the key, the base URL and the model.
  channelTestRequest: (upstreamModel) => ({
    method: "POST",
    path: "/v1/chat/completions",
    body: { model: upstreamModel, messages: [{ role: "user", content: "ping" }], max_tokens: 1 },
  }),
  chat: (request, input) => relayOpenaiChat(request, input.response, input),
  responses: (request, input) => relayOpenaiResponses(request, input.response, input),
  embeddings: (request, input) => relayOpenaiEmbeddings(request, input.response, input),
  images: (call, input, services) => relayOpenaiImage(call, input, services),
  speech: (request, input) => relayOpenaiSpeech(request, input.response, input),
  transcription: (call, input) => relayOpenaiTranscription(call, input),
  videoTasks: openaiVideoTasks,
  videoSubmission: (call, input) => relayVideoSubmission(openaiVideoTasks, call, input),
  messages: (call, input) => relayOpenaiMessages(call, input),
} as const satisfies ProviderAdapter;
