import { InvalidRequestError } from "../../errors/gateway-error.js";
import { nativeImageMimeTypes } from "./native-image-mime-types.js";
import { parseDataUri } from "../../net/parse-data-uri.js";
import { detectImageMimeType } from "./detect-image-mime-type.js";
import type { ImageReference } from "./read-image-references.js";

/** A reference image as a provider can take it: a URL for the provider to fetch, or the bytes inline. */
export type ParsedReferenceImage = { kind: "url"; url: string } | { kind: "inline"; mimeType: string; base64: string };

const base64Pattern = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Checks one reference image without downloading it: an http(s) URL, a data: URI of an allowed image type, or raw
 * base64 whose file signature is an allowed image type. Anything else is the images API's documented 400
 * `invalid_request` (bad image format or unsupported MIME type), naming the field and the allowed types.
 */
export function parseReferenceImage(reference: ImageReference): ParsedReferenceImage {
  const value = reference.value.trim();
  const allowed = [...nativeImageMimeTypes].join(", ");
  if (/^https?:\/\//i.test(value)) return { kind: "url", url: value };
  if (/^data:/i.test(value)) {
    const parsed = parseDataUri(value);
    if (parsed === undefined)
      throw new InvalidRequestError(`${reference.param} is not a valid base64 data URI.`, { param: reference.param });
    const mimeType = parsed.mimeType.toLowerCase();
    if (!nativeImageMimeTypes.has(mimeType))
      throw new InvalidRequestError(
        `Unsupported reference image MIME type ${mimeType} in ${reference.param}; allowed: ${allowed}.`,
        { param: reference.param },
      );
    return { kind: "inline", mimeType, base64: parsed.data };
  }
  const data = value.replaceAll(/\s/g, "");
  const mimeType = base64Pattern.test(data) ? detectImageMimeType(Buffer.from(data.slice(0, 64), "base64")) : undefined;
  if (mimeType === undefined)
    throw new InvalidRequestError(
      `${reference.param} must be an http(s) URL, a data: URI or base64 of an image (${allowed}).`,
      { param: reference.param },
    );
  return { kind: "inline", mimeType, base64: data };
}
