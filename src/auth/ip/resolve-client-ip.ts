import { memoizeRecent } from "../../cache/memoize-recent.js";
import type { AllowList } from "./allow-list.js";
import { formatIpAddress } from "./format-ip-address.js";
import { isIpInAllowList } from "./is-ip-in-allow-list.js";
import { parseIpAddress } from "./parse-ip-address.js";

// Some proxies (Azure, some CDNs) write `1.2.3.4:5678` or `[2001:db8::1]:443`.
const bracketedIpv6 = /^\[([^\]]+)\](?::[0-9]{1,5})?$/;
const ipv4WithPort = /^([0-9.]+):[0-9]{1,5}$/;

// Pure, and the same few peers (a proxy, a load balancer, the clients of a team) come back on every request.
const normalise = memoizeRecent((text: string): string | undefined => {
  const withoutPort = bracketedIpv6.exec(text)?.[1] ?? ipv4WithPort.exec(text)?.[1] ?? text;
  const address = parseIpAddress(withoutPort);
  return address === undefined ? undefined : formatIpAddress(address);
}, 10_000);

/**
 * The client address to check allow-lists and rate limits against.
 *
 * X-Forwarded-For is client-writable, so it is read only when the socket peer
 * is a trusted proxy. Then the header is walked right to left (each proxy
 * appends the peer it saw) and the first address that is not itself a trusted
 * proxy is the client. An entry that is not an IP address ends the walk like
 * an absent header would: the last verified hop is returned, never the junk.
 * If every hop is a trusted proxy, the leftmost one is returned.
 * Results are normalised (IPv4-mapped IPv6 to IPv4, IPv6 compressed).
 */
export function resolveClientIp(
  socketAddress: string,
  forwardedFor: string | undefined,
  trustedProxies: AllowList | undefined,
): string {
  const socketIp = normalise(socketAddress) ?? socketAddress;
  if (trustedProxies === undefined || forwardedFor === undefined) return socketIp;
  if (!isIpInAllowList(trustedProxies, socketIp)) return socketIp;

  const hops = forwardedFor.split(",").map((hop) => hop.trim());
  let lastVerified = socketIp;
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    const hop = normalise(hops[index] ?? "");
    if (hop === undefined) return lastVerified;
    if (!isIpInAllowList(trustedProxies, hop)) return hop;
    lastVerified = hop;
  }
  return lastVerified;
}
