import { assertMediaBytesMatchType } from "../../../net/assert-media-bytes-match-type.js";

/** Base64 characters for the first 1,026 bytes: enough for every signature the check reads. */
const headCharacters = 1368;

/** assertMediaBytesMatchType for a base64 payload, decoding only its head (payloads can be megabytes). */
export function assertInlineDataMatchesType(mimeType: string, base64Data: string, param: string): void {
  assertMediaBytesMatchType(mimeType, Buffer.from(base64Data.slice(0, headCharacters), "base64"), param);
}
