import { InvalidRequestError } from "../errors/gateway-error.js";
import { channelMessages } from "./channel-messages.js";

/** http(s) only (the spec's `format: uri` also admits other schemes); without the trailing slash the adapters expect. */
export function normalizeBaseUrl(baseUrl: string): string {
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new InvalidRequestError(channelMessages.baseUrlScheme, { param: "base_url" });
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new InvalidRequestError(channelMessages.baseUrlScheme, { param: "base_url" });
  }
  return baseUrl.replace(/\/+$/, "");
}
