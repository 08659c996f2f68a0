/**
 * Media types the native family accepts as inlineData, exactly the documented allow-list. `jpg`, `mp3`, `mov`, `mpg`
 * and friends are not registered IANA names but the upstream documents them, so clients may send them as given.
 * Used both for data URIs in chat requests and as the safe fetcher's Content-Type allow-list.
 */
export const nativeMediaMimeTypes: ReadonlySet<string> = new Set([
  "image/png",
  "image/jpeg",
  "image/jpg",
  "image/webp",
  "image/heic",
  "image/heif",
  "audio/mpeg",
  "audio/mp3",
  "audio/wav",
  "video/mp4",
  "video/mov",
  "video/mpeg",
  "video/mpg",
  "video/avi",
  "video/wmv",
  "video/mpegps",
  "video/flv",
  "application/pdf",
  "text/plain",
]);
