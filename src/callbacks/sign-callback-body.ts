import { createHmac } from "node:crypto";

/**
 * The `X-Signature` value of a callback: `sha256=` and the hex HMAC-SHA256 of `<timestamp>.<raw body>`, keyed by the
 * user's secret as it was shown to them (UTF-8, `whsec_` prefix included). The timestamp is signed with the body so
 * a captured callback cannot be replayed later under a fresh timestamp.
 */
export function signCallbackBody(secret: string, timestampSeconds: number, rawBody: string): string {
  const hmac = createHmac("sha256", secret).update(`${timestampSeconds}.`, "utf8").update(rawBody, "utf8");
  return `sha256=${hmac.digest("hex")}`;
}
