/**
 * The human message inside an upstream error body, whichever envelope it uses (OpenAI `{error:{message}}`,
 * native `{error:{message,status}}`, or plain text). Upstream keys never appear in these bodies, but the text is
 * cut short so a misbehaving upstream cannot flood our clients or logs.
 */
export function readUpstreamErrorMessage(bodyText: string): string {
  try {
    const parsed = JSON.parse(bodyText) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof parsed.error === "object" && typeof parsed.error?.message === "string")
      return parsed.error.message.slice(0, 500);
    if (typeof parsed.error === "string") return parsed.error.slice(0, 500);
    if (typeof parsed.message === "string") return parsed.message.slice(0, 500);
  } catch {
    // not JSON: fall through to the text itself
  }
  return bodyText.slice(0, 200) || "no body";
}
