import ipaddr from "ipaddr.js";
import { parseIpAddress } from "../auth/ip/parse-ip-address.js";

/**
 * True only for globally routable unicast addresses. Everything ipaddr.js
 * classifies as special is refused: loopback (127/8, ::1), private (10/8,
 * 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16 with the cloud
 * metadata address 169.254.169.254, fe80::/10), unspecified, carrier-grade NAT
 * (100.64/10), multicast, broadcast, reserved and documentation ranges, and the
 * IPv6 ranges that embed an IPv4 address (NAT64, 6to4, Teredo), because those can
 * smuggle a private IPv4 target past a check that only looks at the IPv6 form.
 * IPv4-mapped IPv6 (`::ffff:10.0.0.1`) is unwrapped by parseIpAddress and judged
 * as the IPv4 address it is. Unparseable text is refused.
 */
export function isPublicIpAddress(text: string): boolean {
  const parsed = parseIpAddress(stripBrackets(text));
  if (parsed === undefined) return false;
  return ipaddr.fromByteArray([...parsed.bytes]).range() === "unicast";
}

function stripBrackets(text: string): string {
  return text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
}
