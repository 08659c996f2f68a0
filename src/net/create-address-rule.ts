import type { AllowList } from "../auth/ip/allow-list.js";
import { isIpInAllowList } from "../auth/ip/is-ip-in-allow-list.js";
import { isAlwaysRefusedAddress } from "./is-always-refused-address.js";
import { isPublicIpAddress } from "./is-public-ip-address.js";

/**
 * Which addresses the gateway may dial for a user (callbacks and the like): public ones, plus the operator's
 * `fetch.allow_private` ranges, never link-local or metadata addresses whatever those list.
 */
export function createAddressRule(allowPrivate: AllowList): (address: string) => boolean {
  return (address) =>
    isPublicIpAddress(address) ||
    (allowPrivate.entries.length > 0 && !isAlwaysRefusedAddress(address) && isIpInAllowList(allowPrivate, address));
}
