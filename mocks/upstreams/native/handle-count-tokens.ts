import { computePromptUsage } from "./compute-prompt-usage.js";
import type { NativeAnswer } from "./native-answer.js";
import type { GenerateContentRequest } from "./native-request-types.js";
import { validateGenerateContentRequest } from "./validate-generate-content-request.js";

/** countTokens: {contents} or {generateContentRequest}; the same count generateContent reports as promptTokenCount. */
export function handleCountTokens(model: string, body: unknown): NativeAnswer {
  const wrapped = (body as { generateContentRequest?: unknown } | null)?.generateContentRequest;
  const source = (wrapped ?? body) as GenerateContentRequest | null;
  // Speech-model modality rules do not apply to counting; validate the contents only.
  const request = validateGenerateContentRequest("gmx-count", {
    contents: source?.contents,
    systemInstruction: source?.systemInstruction,
  });
  const usage = computePromptUsage(request);
  return {
    kind: "json",
    status: 200,
    body: { totalTokens: usage.promptTokenCount, promptTokensDetails: usage.promptTokensDetails },
  };
}
