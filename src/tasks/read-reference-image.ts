import { InvalidRequestError } from "../errors/gateway-error.js";
import type { FetchMedia } from "../net/create-safe-fetcher.js";
import { parseDataUri } from "../net/parse-data-uri.js";
import type { VideoReferenceImage } from "../providers/contract/video-task-capability.js";

const imageMagic: ReadonlyArray<[string, (bytes: Buffer) => boolean]> = [
  ["image/png", (bytes) => bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ["image/jpeg", (bytes) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff],
  [
    "image/webp",
    (bytes) =>
      bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP",
  ],
];
const extensions: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" };

/**
 * A reference image given as text: an http(s) URL is downloaded through the SSRF-safe fetcher; a data URI or raw
 * base64 is decoded, and its type read from the bytes (png, jpeg, webp), since raw base64 names none.
 */
export async function readReferenceImage(
  value: string,
  options: { param: string; role: VideoReferenceImage["role"]; fetchImage: FetchMedia },
): Promise<VideoReferenceImage> {
  const text = value.trim();
  if (/^https?:\/\//i.test(text)) {
    const fetched = await options.fetchImage(text).catch((error: unknown) => {
      // The fetcher's refusals name the host; the client also needs the field that held the URL.
      if (error instanceof InvalidRequestError && error.param === undefined)
        throw new InvalidRequestError(`${options.param}: ${error.message}`, {
          code: error.code,
          param: options.param,
          cause: error,
        });
      throw error;
    });
    // The gateway's one image fetcher also takes the image family's HEIC and HEIF; video references stay within
    // what the video providers read.
    const mimeType = fetched.mimeType === "image/jpg" ? "image/jpeg" : fetched.mimeType;
    if (extensions[mimeType] === undefined)
      throw new InvalidRequestError(`${options.param} is ${mimeType}; a video reference must be PNG, JPEG or WebP.`, {
        param: options.param,
      });
    return withName({ role: options.role, mimeType, data: fetched.data });
  }
  const dataUri = parseDataUri(text);
  const base64 = dataUri?.data ?? text.replaceAll(/\s/g, "");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64))
    throw new InvalidRequestError(`${options.param} must be an http(s) URL, a data URI or base64 image data.`, {
      param: options.param,
    });
  const data = Buffer.from(base64, "base64");
  const mimeType = imageMagic.find(([, test]) => test(data))?.[0];
  if (mimeType === undefined)
    throw new InvalidRequestError(`${options.param} is not a PNG, JPEG or WebP image.`, { param: options.param });
  return withName({ role: options.role, mimeType, data });
}

function withName(image: Omit<VideoReferenceImage, "filename">): VideoReferenceImage {
  const extension = extensions[image.mimeType] ?? image.mimeType.split("/")[1] ?? "bin";
  return { ...image, filename: `reference.${extension}` };
}
