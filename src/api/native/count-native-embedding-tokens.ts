import type { components } from "../../../generated/types/native.js";
import { estimatePromptTokens } from "../../billing/estimate-prompt-tokens.js";

type EmbedContentRequest = components["schemas"]["EmbedContentRequest"];
type BatchEmbedContentsRequest = components["schemas"]["BatchEmbedContentsRequest"];

/**
 * The tokens an embedding request is billed for. Native embedding answers carry no usage, so the gateway counts
 * the text itself with the same estimator that sizes reservations, over the text parts only (not titles, task
 * types or model names): REQUEST_OVERHEAD_TOKENS (3) + ASCII characters / 3 (rounded up) + one token per other
 * character. The reservation is this same number, so an embedding request holds exactly what it will cost.
 */
export function countNativeEmbeddingTokens(request: EmbedContentRequest | BatchEmbedContentsRequest): number {
  const requests =
    "requests" in request && Array.isArray(request.requests) ? request.requests : [request as EmbedContentRequest];
  const texts = requests.flatMap((single) =>
    (single.content?.parts ?? []).map((part) => part.text).filter((text) => typeof text === "string"),
  );
  return estimatePromptTokens(texts);
}
