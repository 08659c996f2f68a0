import type { GatewayConfig } from "../../config/gateway-config.js";
import type { Logger } from "../../logging/logger.js";
import type { OpenCheckedDownload } from "../../net/create-checked-download-opener.js";
import type { FetchMedia } from "../../net/create-safe-fetcher.js";

/**
 * What adapters need beyond the call and the attempt, built once per gateway (createProviderServices): the
 * downloaders own connection pools, so they must not be made per request. Per-request state (translations a
 * failover reuses) lives on the attempt input instead (RelayAttemptInput.remember).
 */
export interface ProviderServices {
  /** Platform default safety settings for the native family (config native.safety_settings). */
  safetySettings: GatewayConfig["nativeSafetySettings"];
  /** The SSRF-safe downloader for media URLs in chat requests (the native media allow-list, 20 MB, 30 s). */
  fetchMedia: FetchMedia;
  /**
   * The SSRF-safe downloader for every reference image a user names: image requests and video references alike
   * (image types only), so the operator's fetch.allow_private reaches them all.
   */
  fetchImage: FetchMedia;
  /**
   * The SSRF-checked GET for the hops an upstream download redirects to (public addresses and the operator's
   * fetch.allow_private ranges); it sends only the headers it is given.
   */
  openDownload: OpenCheckedDownload;
  logger: Logger;
  /** Unix seconds; the gateway's clock, which tests can move. */
  now(): number;
}
