import type { GatewayConfig } from "../config/gateway-config.js";
import type { Logger } from "../logging/logger.js";
import { createAddressRule } from "../net/create-address-rule.js";
import { createCheckedDownloadOpener } from "../net/create-checked-download-opener.js";
import { createSafeFetcher } from "../net/create-safe-fetcher.js";
import {
  createNativeMediaFetcher,
  nativeMediaMaxBytes,
  nativeMediaTimeoutMs,
} from "./native/shared/create-native-media-fetcher.js";
import { nativeImageMimeTypes } from "./image-families/native-image-mime-types.js";
import type { ProviderServices } from "./contract/provider-services.js";

/** The adapters' shared services, once per gateway; the downloaders reach the operator's fetch.allow_private ranges. */
export function createProviderServices(config: GatewayConfig, logger: Logger, now: () => number): ProviderServices {
  return {
    safetySettings: config.nativeSafetySettings,
    fetchMedia: createNativeMediaFetcher(config.fetchAllowPrivate),
    // Reference images are limited to the image types the image endpoints document, within the same size and time
    // budget.
    fetchImage: createSafeFetcher({
      maxBytes: nativeMediaMaxBytes,
      allowedMimeTypes: nativeImageMimeTypes,
      timeoutMs: nativeMediaTimeoutMs,
      allowPrivate: config.fetchAllowPrivate,
    }),
    openDownload: createCheckedDownloadOpener({
      isAllowedAddress: createAddressRule(config.fetchAllowPrivate),
      connectTimeoutMs: nativeMediaTimeoutMs,
    }),
    logger,
    now,
  };
}
