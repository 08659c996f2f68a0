export interface ParsedDataUri {
  /** Lower-cased media type without parameters; `text/plain` when the URI names none (RFC 2397). */
  mimeType: string;
  /** The payload as standard base64, whatever encoding the URI used. */
  data: string;
}

const base64Pattern = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Reads a `data:` URI (RFC 2397). Base64 payloads are passed on without decoding (they can be megabytes); base64url
 * is rewritten to standard base64 because the native API's JSON decoding expects it; percent-encoded payloads are
 * decoded and re-encoded. Returns undefined for anything that is not a well-formed data URI.
 */
export function parseDataUri(uri: string): ParsedDataUri | undefined {
  const match = /^data:([^,]*),(.*)$/is.exec(uri.trim());
  if (match === null) return undefined;
  const [mediaType = "", ...parameters] = (match[1] ?? "").split(";");
  const mimeType = mediaType.trim().toLowerCase() || "text/plain";
  const payload = match[2] ?? "";
  if (parameters.some((parameter) => parameter.trim().toLowerCase() === "base64")) {
    const data = payload.replaceAll(/\s/g, "").replaceAll("-", "+").replaceAll("_", "/");
    return base64Pattern.test(data) ? { mimeType, data } : undefined;
  }
  try {
    return { mimeType, data: Buffer.from(decodeURIComponent(payload), "utf8").toString("base64") };
  } catch {
    return undefined;
  }
}
