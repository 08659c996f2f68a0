import { InvalidRequestError } from "../errors/gateway-error.js";

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  return signature.every((value, index) => bytes[offset + index] === value);
}

function ascii(text: string): number[] {
  return [...text].map((character) => character.charCodeAt(0));
}

function riffOf(bytes: Uint8Array, form: string): boolean {
  return startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii(form), 8);
}

/** ISO base media (MP4, MOV, HEIF): a box whose type is `ftyp` (or, in old QuickTime files, another top box). */
function isoBoxType(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes.subarray(4, 8));
}

function isMpegAudio(bytes: Uint8Array): boolean {
  return startsWith(bytes, ascii("ID3")) || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0);
}

function isPdf(bytes: Uint8Array): boolean {
  // Readers accept the header anywhere in the first kilobyte.
  return Buffer.from(bytes.subarray(0, 1024)).includes("%PDF-");
}

/**
 * Whether the leading bytes (at least the first kilobyte when there is one) are what the declared media type says,
 * by magic numbers. Types without a signature check pass; text must hold no NUL byte.
 */
function mediaBytesMatchType(mimeType: string, bytes: Uint8Array): boolean {
  switch (mimeType) {
    case "image/png":
      return startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case "image/jpeg":
    case "image/jpg":
      return startsWith(bytes, [0xff, 0xd8, 0xff]);
    case "image/gif":
      return startsWith(bytes, ascii("GIF8"));
    case "image/webp":
      return riffOf(bytes, "WEBP");
    case "image/heic":
    case "image/heif":
    case "image/avif":
      return isoBoxType(bytes) === "ftyp";
    case "audio/wav":
    case "audio/x-wav":
    case "audio/wave":
      return riffOf(bytes, "WAVE");
    case "audio/mpeg":
    case "audio/mp3":
      return isMpegAudio(bytes);
    case "video/mp4":
    case "audio/mp4":
    case "audio/m4a":
      return isoBoxType(bytes) === "ftyp";
    case "video/mov":
    case "video/quicktime":
      return ["ftyp", "moov", "mdat", "wide", "free", "skip", "pnot"].includes(isoBoxType(bytes));
    case "video/mpeg":
    case "video/mpg":
    case "video/mpegps":
      return startsWith(bytes, [0x00, 0x00, 0x01, 0xba]) || startsWith(bytes, [0x00, 0x00, 0x01, 0xb3]);
    case "video/avi":
      return riffOf(bytes, "AVI ");
    case "video/wmv":
      return startsWith(bytes, [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11]);
    case "video/flv":
      return startsWith(bytes, ascii("FLV"));
    case "application/pdf":
      return isPdf(bytes);
    case "text/plain":
      return !bytes.subarray(0, 1024).includes(0);
    default:
      return true;
  }
}

/**
 * Refuses an inline or fetched media item whose bytes are not the media type it declares (an HTML page sent as
 * `image/png`, say): upstreams would otherwise be handed content of another kind under a trusted label.
 */
export function assertMediaBytesMatchType(mimeType: string, bytes: Uint8Array, param?: string): void {
  if (mediaBytesMatchType(mimeType.toLowerCase(), bytes)) return;
  throw new InvalidRequestError(
    `${param ?? "The media item"} is declared ${mimeType}, but its bytes are not ${mimeType}.`,
    { code: "invalid_media_content", ...(param ? { param } : {}) },
  );
}
