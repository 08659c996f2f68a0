import { InvalidRequestError } from "../../errors/invalid-request-error.js";
import type { FetchMedia } from "../../net/create-safe-fetcher.js";
import type { NativeVideoImage } from "./native-video-operation-types.js";
import { nativeImageMimeTypes } from "./native-image-mime-types.js";
import { parseDataUri } from "./parse-data-uri.js";

const base64Pattern = /^[A-Za-z0-9+/]+={0,2}$/;
const signatures: Array<[string, (head: Buffer) => boolean]> = [
  ["image/png", (head) => head.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))],
  ["image/jpeg", (head) => head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff],
  ["image/webp", (head) => head.subarray(8, 12).toString("latin1") === "WEBP"],
];

/**
 * A frame image of a vid-b request (URL, data URI or raw base64) → the inline image the long-running API takes. URLs
 * are downloaded by the SSRF-safe fetcher; raw base64 carries no type, so its signature tells it.
 */
export async function readNativeVideoFrame(
  value: string,
  field: string,
  fetchMedia: FetchMedia,
): Promise<NativeVideoImage> {
  const text = value.trim();
  let mimeType: string | undefined;
  let data: string;
  if (/^data:/i.test(text)) {
    const parsed = parseDataUri(text);
    if (parsed === undefined)
      throw new InvalidRequestError(`${field} is not a valid base64 data URI.`, { param: field });
    ({ mimeType, data } = parsed);
  } else if (/^https?:\/\//i.test(text)) {
    const media = await fetchMedia(text);
    mimeType = media.mimeType.toLowerCase();
    data = media.data.toString("base64");
  } else {
    data = text.replaceAll(/\s/g, "");
    const head = base64Pattern.test(data) ? Buffer.from(data.slice(0, 64), "base64") : Buffer.alloc(0);
    mimeType = signatures.find(([, matches]) => matches(head))?.[0];
    if (mimeType === undefined)
      throw new InvalidRequestError(
        `${field} must be an http(s) URL, a data: URI or base64 of a PNG, JPEG or WebP image.`,
        { param: field },
      );
  }
  if (!nativeImageMimeTypes.has(mimeType))
    throw new InvalidRequestError(
      `${field} has the unsupported type ${mimeType}; allowed: ${[...nativeImageMimeTypes].join(", ")}.`,
      { param: field },
    );
  return { bytesBase64Encoded: data, mimeType };
}
