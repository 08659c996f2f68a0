import dns from "node:dns";
import net from "node:net";
import type { LookupFunction, Socket } from "node:net";
import { Agent, buildConnector } from "undici";

export interface CheckedDispatcherOptions {
  /** True for an address the gateway may dial for a user (public, or in the operator's allowed private ranges). */
  isAllowedAddress(address: string): boolean;
  connectTimeoutMs: number;
  /** Tests only: resolves host names instead of the system resolver (names that resolve to private addresses). */
  resolve?: (hostname: string) => Promise<dns.LookupAddress[]>;
  /** Ends the refusal message "<host> resolves to <address>, which is …". Default "not an address the gateway calls". */
  refusedAddressDescription?: string;
}

/** Why a connection was not made: the address is not one the gateway dials for users. */
export class RefusedAddressError extends Error {
  readonly code = "EADDRREFUSED_BY_POLICY";
}

/**
 * An undici dispatcher that only opens connections to allowed addresses, checked where the socket is opened: names
 * through a checking `lookup` (one refused answer refuses the name, so a rebinding resolver cannot win a race), IP
 * literals before dialling, and the connected peer once more. Serves the media fetcher (create-safe-fetcher.ts) and
 * requests that are not downloads (task callbacks).
 */
export function createCheckedDispatcher(options: CheckedDispatcherOptions): Agent {
  const isAllowed = (address: string) => options.isAllowedAddress(stripBrackets(address));
  const description = options.refusedAddressDescription ?? "not an address the gateway calls";
  const refusal = (hostname: string, address: string) =>
    new RefusedAddressError(`${hostname} resolves to ${address}, which is ${description}`);
  const checkingLookup: LookupFunction = (hostname, lookupOptions, callback) => {
    const resolved = (done: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void) =>
      options.resolve
        ? options.resolve(hostname).then(
            (addresses) => done(null, addresses),
            (error: NodeJS.ErrnoException) => done(error, []),
          )
        : dns.lookup(hostname, { ...lookupOptions, all: true }, done);
    resolved((error, addresses) => {
      if (error) return callback(error, "", 4);
      const refused = addresses.find((entry) => !isAllowed(entry.address));
      // One bad answer refuses the name: picking the good answers would let a rebinding resolver win the race.
      if (refused !== undefined) return callback(refusal(hostname, refused.address), "", 4);
      if (lookupOptions.all === true)
        return (callback as unknown as (error: null, all: dns.LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (first === undefined)
        return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "", 4);
      callback(null, first.address, first.family);
    });
  };
  const baseConnector = buildConnector({
    timeout: options.connectTimeoutMs,
    lookup: checkingLookup,
  } as buildConnector.BuildOptions);
  return new Agent({
    connect: (connectOptions, callback) => {
      const hostname = stripBrackets(connectOptions.hostname);
      if (net.isIP(hostname) !== 0 && !isAllowed(hostname)) return callback(refusal(hostname, hostname), null);
      baseConnector(connectOptions, (error, socket) => {
        if (error !== null) return callback(error, null);
        const peer = (socket as Socket).remoteAddress;
        if (peer === undefined || !isAllowed(peer)) {
          socket.destroy();
          return callback(refusal(hostname, peer ?? "unknown"), null);
        }
        callback(null, socket);
      });
    },
  });
}

function stripBrackets(text: string): string {
  return text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
}
