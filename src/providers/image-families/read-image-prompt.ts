import { InvalidRequestError } from "../../errors/gateway-error.js";

/**
 * The request's prompt: `prompt`, or the text parts of the multi-family `contents` form joined by a blank line.
 * A missing or blank prompt is the images API's documented 400 `invalid_request`.
 */
export function readImagePrompt(body: Record<string, unknown>): string {
  if (typeof body.prompt === "string" && body.prompt.trim() !== "") return body.prompt;
  const texts = readContentsParts(body).flatMap((part) => (typeof part.text === "string" ? [part.text] : []));
  const joined = texts.join("\n\n");
  if (joined.trim() === "")
    throw new InvalidRequestError("prompt is required and must not be empty.", { param: "prompt" });
  return joined;
}

/** Every part of every `contents` turn, in order. */
export function readContentsParts(body: Record<string, unknown>): Array<Record<string, unknown>> {
  if (!Array.isArray(body.contents)) return [];
  return body.contents.flatMap((turn) => {
    const parts = (turn as { parts?: unknown } | null)?.parts;
    return Array.isArray(parts) ? (parts as Array<Record<string, unknown>>) : [];
  });
}
