import type { Response } from "express";
import type { NativeGenerateCall } from "../../contract/native-generate-call.js";
import type { components } from "../../../../generated/types/native.js";
import type { MeteredUsage } from "../../../billing/metered-usage.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { sendUpstreamRequest } from "../../../upstream/send-upstream-request.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import { collectProducedMedia, type ProducedMedia } from "../shared/collect-produced-media.js";
import { convertNativeUsage } from "../shared/convert-native-usage.js";
import { nativeEndpoints, type NativeEndpoints } from "../shared/native-endpoints.js";
import { pipeNativeEventStream } from "./pipe-native-event-stream.js";

type GenerateContentResponse = components["schemas"]["GenerateContentResponse"];

/**
 * One native generation attempt against a `native` channel: the path's model is the channel's mapped model, the
 * upstream key goes in `x-goog-api-key`, the body passes through. Answers pass through too; `modelVersion` is
 * left as the upstream reports it (it names the version that really answered, which is what the field is for).
 * Billing reads usageMetadata: prompt as input, candidates + thoughts as output (convertNativeUsage).
 */
export async function relayNativeGenerate(
  call: NativeGenerateCall,
  response: Response,
  input: RelayAttemptInput,
  endpoints: NativeEndpoints = nativeEndpoints,
): Promise<void> {
  const method = call.mode === "json" ? "generateContent" : "streamGenerateContent";
  const upstreamRequest = {
    method: "POST",
    path: `${endpoints.modelMethod(input.attempt, input.attempt.upstreamModel, method)}${call.mode === "sse" ? "?alt=sse" : ""}`,
    headers: input.upstreamHeaders({ stream: call.mode === "sse" }),
    body: JSON.stringify(call.request),
    signal: input.signal,
  } as const;

  if (call.mode === "sse") {
    const upstream = await sendUpstreamRequest(input.attempt, upstreamRequest);
    await pipeNativeEventStream(upstream.body, response, input);
    return;
  }
  const answer = await sendUpstreamJsonRequest<unknown>(input.attempt, upstreamRequest);
  // Without alt the stream comes back as one JSON array of fragments, collected upstream and sent whole here.
  const fragments = (
    call.mode === "json-array" && Array.isArray(answer) ? answer : [answer]
  ) as GenerateContentResponse[];
  input.observed.usage = meterFragments(fragments, call.promptTokenEstimate);
  input.deliver(answer);
}

function meterFragments(fragments: readonly GenerateContentResponse[], promptTokenEstimate: number): MeteredUsage {
  const producedMedia = new Set<ProducedMedia>();
  let usageMetadata: GenerateContentResponse["usageMetadata"];
  for (const fragment of fragments) {
    if (fragment?.usageMetadata) usageMetadata = fragment.usageMetadata;
    for (const candidate of fragment?.candidates ?? []) collectProducedMedia(candidate.content?.parts, producedMedia);
  }
  if (!usageMetadata)
    return { promptTokens: promptTokenEstimate, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 };
  return convertNativeUsage(usageMetadata, { producedMedia }).meteredUsage;
}
