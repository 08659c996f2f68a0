import type { Response } from "express";
import type { NativeEmbedCall } from "../../contract/native-embed-call.js";
import type { components } from "../../../../generated/types/native.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";

type EmbedContentRequest = components["schemas"]["EmbedContentRequest"];

/**
 * One embedding attempt against a `native` channel. The body passes through with every `model` it names (the
 * native SDK repeats `models/<id>` in each batch request) rewritten to the channel's mapped model of the path's
 * model: the upstream requires the two to match, and the path is what routing and billing went by. The answer passes through; it has no usage, so the caller's count of the
 * text (countNativeEmbeddingTokens) is billed as prompt tokens.
 */
export async function relayNativeEmbed(
  call: NativeEmbedCall,
  response: Response,
  input: RelayAttemptInput,
): Promise<void> {
  const upstreamModelName = `models/${input.attempt.upstreamModel}`;
  const withModel = (single: EmbedContentRequest): EmbedContentRequest =>
    single.model === undefined ? single : { ...single, model: upstreamModelName };
  const body =
    call.method === "embedContent"
      ? withModel(call.request)
      : { ...call.request, requests: call.request.requests.map(withModel) };
  const answer = await sendUpstreamJsonRequest<unknown>(input.attempt, {
    method: "POST",
    path: `/v1beta/models/${encodeURIComponent(input.attempt.upstreamModel)}:${call.method}`,
    headers: input.upstreamHeaders(),
    body: JSON.stringify(body),
    signal: input.signal,
  });
  input.observed.usage = { promptTokens: call.promptTokens, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 };
  input.deliver(answer);
  void response;
}
