import type { components } from "../../../../generated/types/native.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import type { UnbilledAttemptInput } from "../../contract/provider-adapter.js";

type CountTokensRequest = components["schemas"]["CountTokensRequest"];
type CountTokensResponse = components["schemas"]["CountTokensResponse"];

/**
 * `:countTokens` on one native channel, under the channel's model name. A `generateContentRequest` names its model
 * too (the native API requires it there), so it is set to the same mapped name whatever the client wrote. The
 * count passes through unchanged: it is the upstream's own, exact for that model. Not billed.
 */
export async function relayNativeCountTokens(
  request: CountTokensRequest,
  input: UnbilledAttemptInput,
): Promise<CountTokensResponse> {
  const model = input.attempt.upstreamModel;
  const body = request.generateContentRequest
    ? { generateContentRequest: { ...request.generateContentRequest, model: `models/${model}` } }
    : request;
  return sendUpstreamJsonRequest<CountTokensResponse>(input.attempt, {
    method: "POST",
    path: `/v1beta/models/${encodeURIComponent(model)}:countTokens`,
    headers: input.upstreamHeaders(),
    body: JSON.stringify(body),
    signal: input.signal,
  });
}
