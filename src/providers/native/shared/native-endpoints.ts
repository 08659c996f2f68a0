import type { ChannelAttempt } from "../../contract/channel-attempt.js";

/**
 * Where a model's methods (`generateContent`, `streamGenerateContent`) live for one channel. The native API keeps
 * them under `/v1beta/models/{model}`; a cloud that serves the same protocol under another path (Vertex AI's
 * project, region and publisher) passes its own, so the native relay functions serve it unchanged.
 */
export interface NativeEndpoints {
  /** The path (no query) of one method of one model on the attempt's channel. */
  modelMethod(attempt: ChannelAttempt, model: string, method: string): string;
}

/** The native API's own paths. */
export const nativeEndpoints: NativeEndpoints = {
  modelMethod: (_attempt, model, method) => `/v1beta/models/${encodeURIComponent(model)}:${method}`,
};
