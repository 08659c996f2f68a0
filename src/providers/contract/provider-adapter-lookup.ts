import type { ChannelType } from "./channel-type.js";
import type { ProviderAdapter } from "./provider-adapter.js";

/**
 * The adapter of a channel type, seen through the common interface (capabilities optional). The composition root
 * builds it from the registry and hands it down, so the relay, the task lifecycle and the channel test never
 * import the adapters themselves.
 */
export type ProviderAdapterLookup = (type: ChannelType) => ProviderAdapter;
