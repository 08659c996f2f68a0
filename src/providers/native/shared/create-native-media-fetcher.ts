import type { AllowList } from "../../../auth/ip/allow-list.js";
import { createSafeFetcher, type FetchMedia } from "../../../net/create-safe-fetcher.js";
import { nativeMediaMimeTypes } from "./native-media-mime-types.js";

/** Largest media file downloaded for one part: the native API's own inline request limit is 20 MB. */
export const nativeMediaMaxBytes = 20 * 1024 * 1024;
/** Budget for one download, redirects included; a slow media host must not hold the request for the whole upstream timeout. */
export const nativeMediaTimeoutMs = 30_000;

/**
 * The SSRF-safe downloader for media URLs in requests to the native family (image_url, file URLs): the documented MIME
 * allow-list, 20 MB, 30 s. Built once per gateway, because it owns a connection pool.
 */
export function createNativeMediaFetcher(allowPrivate?: AllowList): FetchMedia {
  return createSafeFetcher({
    ...(allowPrivate ? { allowPrivate } : {}),
    maxBytes: nativeMediaMaxBytes,
    allowedMimeTypes: nativeMediaMimeTypes,
    timeoutMs: nativeMediaTimeoutMs,
  });
}
