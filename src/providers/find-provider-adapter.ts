import type { ChannelType } from "./contract/channel-type.js";
import type { ProviderAdapter } from "./contract/provider-adapter.js";
import { providerRegistry } from "./registry.js";

/** The adapter of a channel type, seen through the common interface (capabilities optional). */
export function findProviderAdapter(type: ChannelType): ProviderAdapter {
  return providerRegistry[type];
}
