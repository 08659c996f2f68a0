import type { components } from "../../../../generated/types/openai.js";
import type { RelayAttemptInput } from "../../contract/relay-attempt-input.js";
import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import { UpstreamFailure } from "../../../upstream/upstream-failure.js";
import { readEmbeddingTexts } from "../../shared-translations/read-embedding-texts.js";
import { convertNativeEmbeddingsToOpenai } from "../../shared-translations/convert-native-embeddings-to-openai.js";
import { estimateEmbeddingTokens } from "../../shared-translations/estimate-embedding-tokens.js";
import { bedrockModelPath, buildSignedBedrockRequest } from "../build-signed-bedrock-request.js";
import {
  type BedrockEmbeddingAnswer,
  convertEmbeddingRequestToBedrock,
  readBedrockEmbeddingAnswer,
} from "./convert-embedding-request-to-bedrock.js";

type EmbeddingRequest = components["schemas"]["CreateEmbeddingRequest"];

/**
 * /v1/embeddings on a Bedrock channel through InvokeModel, one call after the other (Titan takes one text per
 * call, Cohere 96), each signed on its own; the vectors go back in the OpenAI list in the format the client asked
 * for. Usage: Titan's own `inputTextTokenCount`, summed; Cohere's answers carry no count, so the gateway's
 * estimate (estimateEmbeddingTokens, the rule native channels use) is billed and reported.
 */
export async function relayBedrockEmbeddings(request: EmbeddingRequest, input: RelayAttemptInput): Promise<void> {
  const { attempt } = input;
  const { family, bodies } = convertEmbeddingRequestToBedrock(request, attempt.upstreamModel);
  const path = bedrockModelPath(attempt.upstreamModel, "invoke");
  const vectors: number[][] = [];
  let reportedTokens: number | undefined = 0;
  for (const body of bodies) {
    const expected = Array.isArray(body.texts) ? body.texts.length : 1;
    const upstreamRequest = await buildSignedBedrockRequest(input, path, JSON.stringify(body), { stream: false });
    const answer = await sendUpstreamJsonRequest<BedrockEmbeddingAnswer>(attempt, upstreamRequest);
    const read = readBedrockEmbeddingAnswer(family, answer, expected);
    // Vectors out of step with the inputs would be silently misattributed; nothing reached the client yet.
    if (!read)
      throw new UpstreamFailure(
        `The upstream did not return ${expected} embedding(s) for ${expected} input(s).`,
        false,
        {
          status: 502,
          code: "bad_response",
        },
      );
    vectors.push(...read.vectors);
    reportedTokens =
      read.tokens === undefined || reportedTokens === undefined ? undefined : reportedTokens + read.tokens;
  }
  const promptTokens = reportedTokens ?? estimateEmbeddingTokens(readEmbeddingTexts(request.input));
  input.observed.usage = { promptTokens, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 };
  input.deliver(
    convertNativeEmbeddingsToOpenai(
      vectors.map((values) => ({ values })),
      { model: request.model, encodingFormat: request.encoding_format ?? "float", promptTokens },
    ),
  );
}
