const mimeTypesByExtension = new Map([
  ["png", "image/png"],
  ["jpg", "image/jpeg"],
  ["jpeg", "image/jpeg"],
  ["webp", "image/webp"],
  ["heic", "image/heic"],
  ["heif", "image/heif"],
  ["mp3", "audio/mp3"],
  ["wav", "audio/wav"],
  ["mp4", "video/mp4"],
  ["mov", "video/mov"],
  ["mpeg", "video/mpeg"],
  ["mpg", "video/mpg"],
  ["avi", "video/avi"],
  ["wmv", "video/wmv"],
  ["flv", "video/flv"],
  ["pdf", "application/pdf"],
  ["txt", "text/plain"],
]);

/** Media type of a file the client sent as bare base64 with only a name to go by; undefined when the extension is unknown. */
export function detectMimeTypeFromFilename(filename: string): string | undefined {
  const extension = /\.([A-Za-z0-9]+)$/.exec(filename.trim())?.[1]?.toLowerCase();
  return extension === undefined ? undefined : mimeTypesByExtension.get(extension);
}
