import type { AllowList } from "./allow-list.js";
import { isIpInAllowList } from "./is-ip-in-allow-list.js";

/**
 * A token's IP check: an empty allow-list lets everyone through (the token has
 * no restriction); otherwise the address must fall inside an entry. An
 * unparseable address is refused whenever there is a restriction.
 */
export function isIpAllowed(allowList: AllowList, ip: string): boolean {
  if (allowList.entries.length === 0) return true;
  return isIpInAllowList(allowList, ip);
}
