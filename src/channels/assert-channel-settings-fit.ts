import type { components } from "../../generated/types/management.js";
import { InvalidRequestError } from "../errors/gateway-error.js";
import type { ChannelType } from "../providers/contract/channel-type.js";
import type { ProviderAdapterLookup } from "../providers/contract/provider-adapter-lookup.js";
import { findChannelSettingsProblem } from "../providers/find-channel-settings-problem.js";

/** Refuses (400, naming the key as `settings.<key>`) settings that do not fit the channel type's declared shape. */
export function assertChannelSettingsFit(
  findAdapter: ProviderAdapterLookup,
  type: ChannelType,
  settings: components["schemas"]["ChannelSettings"] | undefined,
): void {
  const problem = findChannelSettingsProblem(type, settings, findAdapter(type).settingsShape);
  if (problem) throw new InvalidRequestError(problem.message, { param: `settings.${problem.key}` });
}
