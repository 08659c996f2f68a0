/** Reference image types the native image family accepts: the seed's list for the image endpoints. */
export const nativeImageMimeTypes: ReadonlySet<string> = new Set([
  "image/png",
  "image/jpeg",
  "image/jpg",
  "image/webp",
  "image/heic",
  "image/heif",
]);
