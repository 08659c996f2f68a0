import type { NativeAnswerContext } from "./fake-native-types.js";
import { buildGenerateContentResponse } from "./build-generate-content-response.js";
import { checkTextThoughtSignatures } from "./check-text-thought-signatures.js";
import { createGenerateStream } from "./create-generate-stream.js";
import type { NativeAnswer } from "./native-answer.js";
import type { NativeContent } from "./native-request-types.js";
import { planGeneration } from "./plan-generation.js";
import { validateGenerateContentRequest } from "./validate-generate-content-request.js";

/** generateContent and streamGenerateContent: same validation and plan, two renderings. */
export function handleGenerateContent(
  model: string,
  body: unknown,
  stream: { alt: string | undefined } | undefined,
  context: NativeAnswerContext,
): NativeAnswer {
  const request = validateGenerateContentRequest(model, body);
  const plan = planGeneration(model, request);
  const identity = {
    modelVersion: model,
    // Stable within one stream, like the real API's.
    responseId: context.createResponseId(),
    createTime: new Date(context.now()).toISOString(),
  };
  const textSignatures = checkTextThoughtSignatures(model, request.contents as NativeContent[]);
  if (!stream) return { kind: "json", status: 200, body: buildGenerateContentResponse(plan, identity), textSignatures };
  return {
    kind: "stream",
    format: stream.alt === "sse" ? "sse" : "json-array",
    fragments: createGenerateStream(plan, identity),
    textSignatures,
  };
}
