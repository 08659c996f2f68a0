import { NativeUpstreamError } from "./native-upstream-error.js";
import type { NativeContent, NativePart } from "./native-request-types.js";
import { readLastUserText } from "./read-last-user-text.js";
import { requiresThoughtSignatures } from "./requires-thought-signatures.js";
import { signFunctionCall } from "./sign-function-call.js";

/** The documented value that tells the real API to skip the check (histories not produced by the model). */
const skipValidatorSignature = "skip_thought_signature_validator";

/**
 * The real API's rule for generation-3 models: in the current turn (the contents after the last user message that
 * is not only function responses), the first functionCall part of each model step must carry the thoughtSignature
 * the model gave it; parallel calls after the first carry none. A missing one is refused with the real message; one
 * that is present but not the one the fake gave is refused as corrupted. Earlier turns are not checked.
 */
export function validateThoughtSignatures(model: string, contents: readonly NativeContent[]): void {
  if (!requiresThoughtSignatures(model)) return;
  let turnStart = 0;
  contents.forEach((content, index) => {
    const parts = (Array.isArray(content.parts) ? content.parts : []) as NativePart[];
    const isUser = content.role === undefined || content.role === "user";
    if (isUser && parts.some((part) => part.functionResponse === undefined)) turnStart = index + 1;
  });
  for (let index = turnStart; index < contents.length; index += 1) {
    const content = contents[index]!;
    if (content.role !== "model") continue;
    const parts = content.parts as Array<NativePart & { thoughtSignature?: unknown }>;
    const first = parts.find((part) => part.functionCall !== undefined);
    if (first === undefined) continue;
    const name = String(first.functionCall?.name);
    const signature = first.thoughtSignature;
    if (signature === undefined || signature === null || signature === "") {
      throw new NativeUpstreamError(
        400,
        `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${index + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
      );
    }
    if (signature === skipValidatorSignature) continue;
    if (signature !== signFunctionCall(name, readLastUserText(contents.slice(0, index))))
      throw new NativeUpstreamError(400, "Corrupted thought signature.");
  }
}
