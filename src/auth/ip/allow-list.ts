/** One address or CIDR range, IPv4-mapped IPv6 already folded into IPv4. */
export interface AllowListEntry {
  /** The entry as written (trimmed), for messages and display. */
  readonly text: string;
  readonly version: 4 | 6;
  /** Network address bytes with host bits cleared (4 or 16 bytes). */
  readonly bytes: readonly number[];
  /** 32 or 128 for a single address. */
  readonly prefixLength: number;
}

/**
 * A parsed, deeply frozen IP allow-list. It is a plain value with no methods,
 * so callers can cache it keyed by the allow_ips text and share it freely.
 */
export interface AllowList {
  readonly entries: readonly AllowListEntry[];
}
