import ipaddr from "ipaddr.js";

export interface ParsedIpAddress {
  readonly version: 4 | 6;
  readonly bytes: readonly number[];
}

/**
 * Parses one textual address strictly: IPv4 only in dotted four-part decimal
 * (no `10.1`, hex or octal forms, which inet_aton would accept and which make
 * allow-lists surprising), IPv6 in any standard form. IPv4-mapped IPv6
 * (`::ffff:1.2.3.4`) becomes IPv4, so a dual-stack socket and an IPv4 entry
 * agree. A zone id (`fe80::1%eth0`) is dropped: it names an interface, not a host.
 * Returns undefined for anything else.
 */
export function parseIpAddress(text: string): ParsedIpAddress | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) {
    return { version: 4, bytes: ipaddr.IPv4.parse(text).toByteArray() };
  }
  if (!text.includes(":") || !ipaddr.IPv6.isValid(text)) return undefined;
  const address = ipaddr.IPv6.parse(text);
  if (address.isIPv4MappedAddress()) {
    return { version: 4, bytes: address.toIPv4Address().toByteArray() };
  }
  return { version: 6, bytes: address.toByteArray() };
}
