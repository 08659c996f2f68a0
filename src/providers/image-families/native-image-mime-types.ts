/** Reference image types the native image family accepts: the list the image endpoints document. */
export const nativeImageMimeTypes: ReadonlySet<string> = new Set([
  "image/png",
  "image/jpeg",
  "image/jpg",
  "image/webp",
  "image/heic",
  "image/heif",
]);
