import { InvalidRequestError } from "../errors/gateway-error.js";

/**
 * Checked at submission, so a task never carries a callback address that can never be called: an absolute http(s)
 * URL without credentials. Where it points is checked when the callback is sent (the address it resolves to then).
 */
export function assertCallbackUrl(value: unknown): string {
  const field = "metadata.callback_url";
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new InvalidRequestError(`${field} must be an absolute http(s) URL.`, { param: field });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new InvalidRequestError(`${field} must use http or https, not ${url.protocol.slice(0, -1)}.`, {
      param: field,
    });
  if (url.username !== "" || url.password !== "")
    throw new InvalidRequestError(`${field} must not carry credentials.`, { param: field });
  return url.toString();
}
