/** One input image of an `img-c-2` edit as it goes upstream: a file part under `image[]`. */
export interface ImgCInputImage {
  bytes: Buffer;
  mimeType: string;
  filename: string;
}
