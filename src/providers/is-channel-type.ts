import type { ChannelType } from "./contract/channel-type.js";
import { providerRegistry } from "./registry.js";

/** Whether a stored or configured type names a registered adapter. */
export function isChannelType(type: string): type is ChannelType {
  return Object.hasOwn(providerRegistry, type);
}
