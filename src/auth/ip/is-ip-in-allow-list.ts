import type { AllowList, AllowListEntry } from "./allow-list.js";
import { parseIpAddress, type ParsedIpAddress } from "./parse-ip-address.js";

const mappedIpv4Prefix = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

function isInPrefix(bytes: readonly number[], entry: AllowListEntry): boolean {
  let remainingBits = entry.prefixLength;
  for (let index = 0; remainingBits > 0; index += 1) {
    const bits = Math.min(8, remainingBits);
    const mask = (0xff << (8 - bits)) & 0xff;
    if (((bytes[index] ?? 0) & mask) !== entry.bytes[index]) return false;
    remainingBits -= bits;
  }
  return true;
}

function matchesEntry(address: ParsedIpAddress, entry: AllowListEntry): boolean {
  if (address.version === entry.version) return isInPrefix(address.bytes, entry);
  // An IPv4 client can still fall inside a wide IPv6 rule that covers ::ffff:0:0/96.
  if (address.version === 4) return isInPrefix([...mappedIpv4Prefix, ...address.bytes], entry);
  return false;
}

/**
 * Whether the address falls inside any entry. Unlike isIpAllowed, an empty
 * list contains nothing (this is what a trusted-proxy list needs). An
 * unparseable address is in no list.
 */
export function isIpInAllowList(allowList: AllowList, ip: string): boolean {
  const address = parseIpAddress(ip.trim());
  if (address === undefined) return false;
  return allowList.entries.some((entry) => matchesEntry(address, entry));
}
