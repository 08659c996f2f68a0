import ipaddr from "ipaddr.js";
import type { ParsedIpAddress } from "./parse-ip-address.js";

/** Canonical text of a parsed address: dotted decimal, or RFC 5952 compressed IPv6. */
export function formatIpAddress(address: ParsedIpAddress): string {
  if (address.version === 4) return address.bytes.join(".");
  return (ipaddr.fromByteArray([...address.bytes]) as ipaddr.IPv6).toRFC5952String();
}
