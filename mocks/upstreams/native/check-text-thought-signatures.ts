import type { NativeContent, NativePart } from "./native-request-types.js";
import { requiresThoughtSignatures } from "./requires-thought-signatures.js";
import { signAnswerText } from "./sign-answer-text.js";

/** How one model turn of a request brought back the signature of its text. */
export interface TextSignatureCheck {
  /** Index of the model turn in `contents`. */
  content: number;
  /** Index of the part that carried the signature; null when none did. */
  part: number | null;
  /** `valid`: the one the fake gave for that text; `altered`: another value; `missing`: no text part carried one. */
  outcome: "valid" | "altered" | "missing";
}

/**
 * The real API does not refuse a generation-3 model turn whose text lost its signature (it only reasons worse), so
 * neither does the fake; it records, for every model turn with answer text, whether the signature came back and
 * matches the turn's whole text (the text parts joined, as the fake answered it). Older generations record nothing.
 */
export function checkTextThoughtSignatures(model: string, contents: readonly NativeContent[]): TextSignatureCheck[] {
  if (!requiresThoughtSignatures(model)) return [];
  const checks: TextSignatureCheck[] = [];
  contents.forEach((content, index) => {
    if (content.role !== "model" || !Array.isArray(content.parts)) return;
    const parts = content.parts as Array<NativePart & { thoughtSignature?: unknown }>;
    const textParts = parts.filter((part) => typeof part.text === "string" && part.thought !== true);
    const text = textParts.map((part) => String(part.text)).join("");
    if (text === "") return;
    const signedAt = parts.findIndex(
      (part) => typeof part.text === "string" && part.thought !== true && part.thoughtSignature !== undefined,
    );
    if (signedAt < 0) {
      checks.push({ content: index, part: null, outcome: "missing" });
      return;
    }
    const valid = parts[signedAt]!.thoughtSignature === signAnswerText(text);
    checks.push({ content: index, part: signedAt, outcome: valid ? "valid" : "altered" });
  });
  return checks;
}
