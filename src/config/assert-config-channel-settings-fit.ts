import { ConfigurationError } from "../errors/gateway-error.js";
import type { ProviderAdapterLookup } from "../providers/contract/provider-adapter-lookup.js";
import { findChannelSettingsProblem } from "../providers/find-channel-settings-problem.js";
import type { ConfiguredChannel } from "./gateway-config.js";

/**
 * Refuses a configuration file channel whose settings do not fit its type, naming the channel and the key. Apart
 * from loadConfig: the shapes are the adapters' to declare, and only the composition root knows the adapters.
 */
export function assertConfigChannelSettingsFit(
  channels: readonly ConfiguredChannel[],
  findAdapter: ProviderAdapterLookup,
): void {
  for (const channel of channels) {
    const problem = findChannelSettingsProblem(channel.type, channel.settings, findAdapter(channel.type).settingsShape);
    if (problem) throw new ConfigurationError(`GATEWAY_CONFIG: channel "${channel.name}" ${problem.message}`);
  }
}
