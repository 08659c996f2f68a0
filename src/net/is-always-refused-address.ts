import ipaddr from "ipaddr.js";
import { parseIpAddress } from "../auth/ip/parse-ip-address.js";

/** Cloud metadata services outside the link-local range (Alibaba Cloud, AWS over IPv6). */
const metadataAddresses = new Set(["100.100.100.200", "fd00:ec2::254"]);

/**
 * Addresses no operator setting can open to user-named downloads: link-local (169.254/16 with the usual metadata
 * address 169.254.169.254, fe80::/10) and the other known metadata services. Their answers are credentials.
 */
export function isAlwaysRefusedAddress(text: string): boolean {
  const parsed = parseIpAddress(text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text);
  if (parsed === undefined) return true;
  const address = ipaddr.fromByteArray([...parsed.bytes]);
  return address.range() === "linkLocal" || metadataAddresses.has(address.toString());
}
