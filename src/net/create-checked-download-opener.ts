import { type Dispatcher, request } from "undici";
import { createCheckedDispatcher, RefusedAddressError } from "./create-checked-dispatcher.js";

export interface CheckedDownloadOptions {
  headers: Record<string, string>;
  /** An AbortSignal, or an EventEmitter undici treats as one (the relay's ClientGoneSignal). */
  signal: NonNullable<Dispatcher.RequestOptions["signal"]>;
}

/**
 * One GET through the checked dispatcher, redirects not followed (the caller decides, hop by hop, what each hop may
 * carry), the body unread. A refused address throws its RefusedAddressError.
 */
export type OpenCheckedDownload = (url: URL, options: CheckedDownloadOptions) => Promise<Dispatcher.ResponseData>;

export interface CheckedDownloadOpenerOptions {
  /** Public addresses, plus the operator's `fetch.allow_private` ranges (createAddressRule). */
  isAllowedAddress(address: string): boolean;
  connectTimeoutMs: number;
}

/**
 * For downloads an upstream redirects elsewhere (a provider's file URL answering 302 to its storage): the next hop's
 * address is the upstream's choice, so it is dialled only where the SSRF rules allow, checked where the socket opens.
 * Built once per gateway: the dispatcher owns the connection pool.
 */
export function createCheckedDownloadOpener(options: CheckedDownloadOpenerOptions): OpenCheckedDownload {
  const dispatcher = createCheckedDispatcher({
    isAllowedAddress: options.isAllowedAddress,
    connectTimeoutMs: options.connectTimeoutMs,
    refusedAddressDescription: "not an address the gateway downloads from",
  });
  return async (url, { headers, signal }) => {
    try {
      return await request(url, { dispatcher, method: "GET", headers, signal });
    } catch (error) {
      for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1)
        if (current instanceof RefusedAddressError) throw current;
      throw error;
    }
  };
}
