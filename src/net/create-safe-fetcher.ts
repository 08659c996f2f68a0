import type dns from "node:dns";
import { request } from "undici";
import type { AllowList } from "../auth/ip/allow-list.js";
import { InvalidRequestError } from "../errors/gateway-error.js";
import { assertMediaBytesMatchType } from "./assert-media-bytes-match-type.js";
import { createAddressRule } from "./create-address-rule.js";
import { createCheckedDispatcher, RefusedAddressError } from "./create-checked-dispatcher.js";
import { isPublicIpAddress } from "./is-public-ip-address.js";

export interface SafeFetcherOptions {
  /** Largest body accepted; enforced while streaming, not only from Content-Length. */
  maxBytes: number;
  /** Media types accepted from Content-Type (parameters and case ignored). */
  allowedMimeTypes: Iterable<string>;
  /** Budget for the whole download, redirects included. */
  timeoutMs: number;
  /** Tests only: lets loopback, private and link-local addresses through. */
  allowPrivateAddresses?: boolean;
  /**
   * Tests only: lets exactly the addresses this returns true for through, on top of the public ones.
   * Narrower than allowPrivateAddresses, so a test can allow 127.0.0.1 and still see the metadata address refused.
   */
  allowAddress?: (address: string) => boolean;
  /**
   * The operator's trusted private ranges (GATEWAY_CONFIG `fetch.allow_private`: internal object storage, the
   * tests' fakes on loopback). Link-local and metadata addresses stay refused whatever it lists.
   */
  allowPrivate?: AllowList;
  /** Redirects followed before giving up; each hop is checked again. Default 3. */
  maxRedirects?: number;
  /** Tests only: resolves host names instead of the system resolver (names that resolve to private addresses). */
  resolve?: (hostname: string) => Promise<dns.LookupAddress[]>;
}

export interface FetchedMedia {
  mimeType: string;
  data: Buffer;
}

export type FetchMedia = (url: string) => Promise<FetchedMedia>;

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * Downloads media named by a user (image_url and the like) without letting the user aim the gateway at its own
 * network. The address check happens where the socket is opened, on the address actually dialled: names are
 * resolved by a checking `lookup`, IP literals are checked before dialling, and the connected socket's peer address
 * is checked once more. Checking the URL up front and connecting later would let DNS rebinding slip a private address
 * in between. Redirects are followed by hand so every hop goes through the same connector.
 *
 * Every refusal is an InvalidRequestError: the URL came from the client. Messages name the host, never the full URL,
 * because signed URLs carry credentials in their query.
 */
export function createSafeFetcher(options: SafeFetcherOptions): FetchMedia {
  const allowedMimeTypes = new Set([...options.allowedMimeTypes].map((type) => type.toLowerCase()));
  const maxRedirects = options.maxRedirects ?? 3;
  const isOperatorAllowed =
    options.allowPrivate !== undefined ? createAddressRule(options.allowPrivate) : isPublicIpAddress;
  // The checked dispatcher hands addresses over without IPv6 brackets.
  const isAllowedAddress = (address: string): boolean =>
    options.allowPrivateAddresses === true || options.allowAddress?.(address) === true || isOperatorAllowed(address);

  const dispatcher = createCheckedDispatcher({
    isAllowedAddress,
    connectTimeoutMs: options.timeoutMs,
    resolve: options.resolve,
    refusedAddressDescription: "not a public address",
  });

  return async (url) => {
    const signal = AbortSignal.timeout(options.timeoutMs);
    let current = parseMediaUrl(url);
    for (let hop = 0; ; hop += 1) {
      const response = await request(current, { dispatcher, method: "GET", signal, headers: { accept: "*/*" } }).catch(
        (error: unknown) => {
          throw fetchFailure(current, describeFailure(error), error);
        },
      );
      if (redirectStatuses.has(response.statusCode)) {
        await response.body.dump().catch(() => undefined);
        const location = response.headers.location;
        if (typeof location !== "string")
          throw fetchFailure(current, `redirect ${response.statusCode} without a Location header`);
        if (hop >= maxRedirects) throw fetchFailure(current, `more than ${maxRedirects} redirects`);
        current = parseMediaUrl(new URL(location, current).toString());
        continue;
      }
      if (response.statusCode < 200 || response.statusCode >= 300) {
        await response.body.dump().catch(() => undefined);
        throw fetchFailure(current, `answered HTTP ${response.statusCode}`);
      }
      const mimeType = readMimeType(response.headers["content-type"]);
      if (mimeType === undefined || !allowedMimeTypes.has(mimeType)) {
        await response.body.dump().catch(() => undefined);
        throw fetchFailure(current, `sent content type ${mimeType ?? "(none)"}, which is not allowed`);
      }
      const declaredLength = Number(response.headers["content-length"]);
      if (Number.isFinite(declaredLength) && declaredLength > options.maxBytes) {
        discardBody(response.body);
        throw fetchFailure(current, `is larger than the ${options.maxBytes}-byte limit`);
      }
      const chunks: Buffer[] = [];
      let received = 0;
      try {
        for await (const chunk of response.body) {
          received += (chunk as Buffer).length;
          if (received > options.maxBytes) {
            discardBody(response.body);
            throw fetchFailure(current, `is larger than the ${options.maxBytes}-byte limit`);
          }
          chunks.push(chunk as Buffer);
        }
      } catch (error) {
        if (error instanceof InvalidRequestError) throw error;
        throw fetchFailure(current, describeFailure(error), error);
      }
      const data = Buffer.concat(chunks);
      try {
        assertMediaBytesMatchType(mimeType, data);
      } catch (error) {
        throw fetchFailure(current, `sent bytes that are not ${mimeType}, the content type it declared`, error);
      }
      return { mimeType, data };
    }
  };
}

/** Destroying an undici body mid-read emits an abort error nobody else listens for; swallow it, the caller already knows. */
function discardBody(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on("error", () => undefined);
  body.destroy();
}

function parseMediaUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidRequestError("Media URL is not a valid URL.", { code: "invalid_media_url" });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidRequestError(`Media URL scheme ${url.protocol} is not allowed; use http or https.`, {
      code: "invalid_media_url",
    });
  }
  // Credentials in a URL are a smuggling vector (`http://public@private/`) and have no business in a media link.
  if (url.username !== "" || url.password !== "") {
    throw new InvalidRequestError(`Media URL on host ${url.host} carries credentials, which are not allowed.`, {
      code: "invalid_media_url",
    });
  }
  return url;
}

function readMimeType(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const type = value?.split(";")[0]?.trim().toLowerCase();
  return type === undefined || type === "" ? undefined : type;
}

function describeFailure(error: unknown): string {
  const cause = findRefusal(error);
  if (cause !== undefined) return `is refused: ${cause.message}`;
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) return "timed out";
  return `could not be downloaded (${error instanceof Error ? error.message : String(error)})`;
}

function findRefusal(error: unknown): RefusedAddressError | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    if (current instanceof RefusedAddressError) return current;
  }
  return undefined;
}

function fetchFailure(url: URL, reason: string, cause?: unknown): InvalidRequestError {
  return new InvalidRequestError(`Media URL on host ${url.host} ${reason}.`, { code: "invalid_media_url", cause });
}
