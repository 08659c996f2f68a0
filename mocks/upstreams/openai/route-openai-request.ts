import type { IdSequence } from "../shared/create-id-sequence.js";
import type { FakeExchange } from "../shared/fake-exchange.js";
import { handleAudioSpeech } from "./handle-audio-speech.js";
import { handleAudioTranscription } from "./handle-audio-transcription.js";
import { handleChatCompletions } from "./handle-chat-completions.js";
import { handleEmbeddings } from "./handle-embeddings.js";
import { handleImages } from "./handle-images.js";
import { handleListModels } from "./handle-list-models.js";
import { handleResponses } from "./handle-responses.js";
import { handleVideos } from "./handle-videos.js";
import type { FakeVideoStore } from "./create-fake-video-store.js";
import { OpenaiRequestError } from "./openai-request-error.js";
import type { ResponsesUsage } from "./plan-response-reply.js";
import type { ResponsesInputMessage } from "./responses-request.js";

export interface OpenaiFakeState {
  ids: IdSequence;
  storedResponses: Map<string, ResponsesUsage>;
  /** Output items of stored responses by id, for `item_reference` input items. */
  storedItems: Map<string, ResponsesInputMessage>;
  videos: FakeVideoStore;
}

/** Dispatches by method and path; anything else gets OpenAI's "Invalid URL" 404. */
export async function routeOpenaiRequest(exchange: FakeExchange, state: OpenaiFakeState): Promise<void> {
  const method = exchange.request.method ?? "GET";
  const path = exchange.url.pathname.replace(/\/+$/, "");
  if (method === "GET" && path === "/v1/models") return handleListModels(exchange);
  const modelMatch = /^\/v1\/models\/([^/]+)$/.exec(path);
  if (method === "GET" && modelMatch) return handleListModels(exchange, decodeURIComponent(modelMatch[1]));
  if (path.startsWith("/v1/videos") && (await handleVideos(exchange, state.videos, state.ids, path))) return;
  if (method === "POST") {
    switch (path) {
      case "/v1/chat/completions":
        return handleChatCompletions(exchange, state.ids);
      case "/v1/responses":
        return handleResponses(exchange, state.ids, state.storedResponses, state.storedItems);
      case "/v1/embeddings":
        return handleEmbeddings(exchange);
      case "/v1/audio/speech":
        return handleAudioSpeech(exchange);
      case "/v1/audio/transcriptions":
        return handleAudioTranscription(exchange, "transcribe");
      case "/v1/audio/translations":
        return handleAudioTranscription(exchange, "translate");
      case "/v1/images/generations":
        return handleImages(exchange, state.ids, "generations");
      case "/v1/images/edits":
        return handleImages(exchange, state.ids, "edits");
    }
  }
  throw new OpenaiRequestError(404, `Invalid URL (${method} ${exchange.url.pathname})`);
}
