import type { components, operations } from "../../../../generated/types/native.js";
import type { QueryParameters } from "../../../http/operation-types.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import type { UnbilledAttemptInput } from "../../contract/provider-adapter.js";

type VoiceQuery = QueryParameters<operations["listVoices"]>;
type ListVoicesResponse = components["schemas"]["ListVoicesResponse"];

/** The documented default page size for voices. */
export const DEFAULT_VOICE_PAGE_SIZE = 50;
const singleFilters = ["gender", "pitch", "context", "type", "search", "page_token"] as const;

/**
 * GET /v1beta/voices on one channel that serves the query's model (the relay tries the next one after a retryable
 * failure). Every filter is forwarded (the client's `key` never is); `model` becomes the channel's mapped model and
 * page_size is always sent (default 50), so the documented default holds whatever the upstream's is. The page and its
 * opaque next_page_token pass through unchanged. Not billed: no reservation, no usage log.
 */
export async function relayNativeVoices(query: VoiceQuery, input: UnbilledAttemptInput): Promise<ListVoicesResponse> {
  const search = new URLSearchParams({ model: input.attempt.upstreamModel });
  for (const code of toList(query.language_code)) search.append("language_code", code);
  for (const name of singleFilters) {
    const value = query[name];
    if (value !== undefined && value !== "") search.set(name, String(value));
  }
  search.set("page_size", String(query.page_size ?? DEFAULT_VOICE_PAGE_SIZE));
  return sendUpstreamJsonRequest<ListVoicesResponse>(input.attempt, {
    method: "GET",
    path: `/v1beta/voices?${search.toString()}`,
    headers: input.upstreamHeaders({ jsonBody: false }),
    signal: input.signal,
  });
}

/** The validator makes a repeated parameter an array; a lone one may still arrive as a string. */
function toList(value: string[] | string | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter((code) => code !== "");
}
