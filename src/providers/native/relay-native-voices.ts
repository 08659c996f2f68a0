import type { components, operations } from "../../../generated/types/native.js";
import type { ClientGoneSignal } from "../../relay/client-gone-signal.js";
import type { ChannelAttempt } from "../../channels/channel-router.js";
import type { QueryParameters } from "../../http/operation-types.js";
import { sendUpstreamJsonRequest } from "../../relay/send-upstream-json-request.js";
import { UpstreamFailure } from "../../relay/upstream-failure.js";
import { buildUpstreamHeaders } from "../../relay/build-upstream-headers.js";

type VoiceQuery = QueryParameters<operations["listVoices"]>;
type ListVoicesResponse = components["schemas"]["ListVoicesResponse"];

/** The seed's default page size for voices. */
export const DEFAULT_VOICE_PAGE_SIZE = 50;
const singleFilters = ["gender", "pitch", "context", "type", "search", "page_token"] as const;

export interface NativeVoicesCall {
  query: VoiceQuery;
  attempts: readonly ChannelAttempt[];
  signal: ClientGoneSignal;
  /** Told which channel failed retryably and which answered, for the router's cooldowns. */
  onFailure(attempt: ChannelAttempt): void;
  onSuccess(attempt: ChannelAttempt): void;
}

/**
 * GET /v1beta/voices on the channels that serve the query's model, first choice first, moving on only after a
 * retryable failure. Every filter is forwarded (the client's `key` never is); `model` becomes the channel's mapped
 * model and page_size is always sent (default 50), so the seed's default holds whatever the upstream's is. The page
 * and its opaque next_page_token pass through unchanged. Not billed: no reservation, no usage log.
 */
export async function relayNativeVoices(call: NativeVoicesCall): Promise<ListVoicesResponse> {
  let lastFailure: unknown;
  for (const attempt of call.attempts) {
    const search = new URLSearchParams({ model: attempt.upstreamModel });
    for (const code of toList(call.query.language_code)) search.append("language_code", code);
    for (const name of singleFilters) {
      const value = call.query[name];
      if (value !== undefined && value !== "") search.set(name, String(value));
    }
    search.set("page_size", String(call.query.page_size ?? DEFAULT_VOICE_PAGE_SIZE));
    try {
      const page = await sendUpstreamJsonRequest<ListVoicesResponse>(attempt, {
        method: "GET",
        path: `/v1beta/voices?${search.toString()}`,
        headers: buildUpstreamHeaders(attempt, { jsonBody: false }),
        signal: call.signal,
      });
      call.onSuccess(attempt);
      return page;
    } catch (error) {
      if (!(error instanceof UpstreamFailure && error.retryable) || call.signal.aborted) throw error;
      call.onFailure(attempt);
      lastFailure = error;
    }
  }
  throw lastFailure;
}

/** The validator makes a repeated parameter an array; a lone one may still arrive as a string. */
function toList(value: string[] | string | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter((code) => code !== "");
}
