import type { FetchMedia } from "../../../net/create-safe-fetcher.js";
import { parseReferenceImage } from "../../image-families/parse-reference-image.js";
import { readImageReferences } from "../../image-families/read-image-references.js";
import type { ImgCInputImage } from "./img-c-input-image.js";

/**
 * The reference images of a JSON `img-c-2` request as files: OpenAI's image API takes input images as uploaded
 * file parts, so URLs are downloaded through the SSRF-safe fetcher and data URIs / raw base64 decoded.
 */
export async function readImgCInputImages(
  body: Record<string, unknown>,
  fetchImage: FetchMedia,
): Promise<ImgCInputImage[]> {
  return Promise.all(
    readImageReferences(body).map(async (reference, index) => {
      const parsed = parseReferenceImage(reference);
      const { bytes, mimeType } =
        parsed.kind === "url"
          ? await fetchImage(parsed.url).then((media) => ({ bytes: media.data, mimeType: media.mimeType }))
          : { bytes: Buffer.from(parsed.base64, "base64"), mimeType: parsed.mimeType };
      const extension = mimeType.replace(/^image\//, "").replace("jpeg", "jpg");
      return { bytes, mimeType, filename: `image-${index + 1}.${extension}` };
    }),
  );
}
