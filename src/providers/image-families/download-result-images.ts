import type { components } from "../../../generated/types/openai.js";
import type { FetchMedia } from "../../net/create-safe-fetcher.js";
import { UpstreamFailure } from "../../upstream/upstream-failure.js";

type ImageResponse = components["schemas"]["ImageResponse"];

/**
 * `response_format: b64_json` for a provider that only hands out URLs: every result URL is downloaded through the
 * SSRF-safe fetcher (a provider URL is no more trusted than a client's) and encoded, the URL dropped. A result that
 * cannot be downloaded fails the request as the upstream's fault (nothing is billed then).
 */
export async function downloadResultImages(result: ImageResponse, fetchMedia: FetchMedia): Promise<ImageResponse> {
  const data = await Promise.all(
    result.data.map(async (item) => {
      if (!item.url) return item;
      const { url, ...rest } = item;
      try {
        const media = await fetchMedia(url);
        const format = media.mimeType.replace(/^image\//, "").replace("jpg", "jpeg");
        return { ...rest, b64_json: media.data.toString("base64"), output_format: format };
      } catch (error) {
        throw new UpstreamFailure(
          `A result image could not be downloaded for b64_json: ${(error as Error).message}`,
          false,
          { status: 502, code: "bad_response", cause: error },
        );
      }
    }),
  );
  return { ...result, data };
}
