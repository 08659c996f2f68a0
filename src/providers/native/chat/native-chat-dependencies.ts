import type { components } from "../../../../generated/types/native.js";
import type { Logger } from "../../../logging/logger.js";
import type { FetchMedia } from "../../../net/create-safe-fetcher.js";
import type { ChatToNativeResult } from "./convert-chat-request-to-native.js";
import type { NativeEndpoints } from "../shared/native-endpoints.js";

type SafetySetting = components["schemas"]["SafetySetting"];

/** What a chat or Responses attempt on a native channel needs beyond the attempt: the adapter's services. */
export interface NativeChatDependencies {
  /** Platform default safety settings (config native.safety_settings). */
  safetySettings: readonly SafetySetting[] | undefined;
  /** The SSRF-safe media downloader (createNativeMediaFetcher). */
  fetchMedia: FetchMedia;
  logger: Logger;
  /** Unix seconds, for `created`. */
  now(): number;
  /**
   * Translations of this request already made, by upstream model name: a failover to another channel that maps
   * the model to the same name reuses the translation instead of downloading the request's media again.
   */
  translations?: Map<string, Promise<ChatToNativeResult>>;
  /** Where the generate methods live (default the native API's own paths). */
  endpoints?: NativeEndpoints;
}
