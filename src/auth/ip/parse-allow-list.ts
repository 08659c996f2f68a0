import { InvalidAllowListError } from "../../errors/gateway-error.js";
import type { AllowList, AllowListEntry } from "./allow-list.js";
import { parseIpAddress } from "./parse-ip-address.js";

// An IPv4-mapped range ::ffff:a.b.c.d/n with n >= 96 is the IPv4 range a.b.c.d/(n-96).
const mappedPrefixBits = 96;

function clearHostBits(bytes: readonly number[], prefixLength: number): number[] {
  return bytes.map((byte, index) => {
    const bitsInThisByte = Math.min(8, Math.max(0, prefixLength - index * 8));
    return byte & (0xff << (8 - bitsInThisByte)) & 0xff;
  });
}

function parseEntry(text: string): AllowListEntry {
  const slash = text.indexOf("/");
  const addressText = slash === -1 ? text : text.slice(0, slash);
  const prefixText = slash === -1 ? undefined : text.slice(slash + 1);
  // Zone ids are allowed for client addresses but make no sense in a rule.
  if (addressText.includes("%")) throw new InvalidAllowListError(text);
  const address = parseIpAddress(addressText);
  if (address === undefined) throw new InvalidAllowListError(text);

  const wasWrittenAsIpv6 = addressText.includes(":");
  const writtenBits = wasWrittenAsIpv6 ? 128 : 32;
  let prefixLength = writtenBits;
  if (prefixText !== undefined) {
    if (!/^[0-9]{1,3}$/.test(prefixText)) throw new InvalidAllowListError(text);
    prefixLength = Number(prefixText);
    if (prefixLength > writtenBits) throw new InvalidAllowListError(text);
  }

  if (wasWrittenAsIpv6 && address.version === 4) {
    if (prefixLength < mappedPrefixBits) {
      // A range wider than the mapped block stays IPv6; matching maps IPv4 clients back into it.
      const mapped = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...address.bytes];
      return Object.freeze({
        text,
        version: 6,
        bytes: Object.freeze(clearHostBits(mapped, prefixLength)),
        prefixLength,
      });
    }
    prefixLength -= mappedPrefixBits;
  }
  // Host bits are cleared rather than rejected, as Go's net.ParseCIDR (new-api) does.
  return Object.freeze({
    text,
    version: address.version,
    bytes: Object.freeze(clearHostBits(address.bytes, prefixLength)),
    prefixLength,
  });
}

/**
 * Parses a token's `allow_ips` text: entries separated by newlines or commas,
 * trimmed, empty ones ignored; each an IPv4/IPv6 address or CIDR range.
 * Throws InvalidAllowListError naming the first bad entry, so token create and
 * update can reject it with a 400. The result is deeply frozen.
 */
export function parseAllowList(text: string): AllowList {
  const entries = text
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map(parseEntry);
  return Object.freeze({ entries: Object.freeze(entries) });
}
