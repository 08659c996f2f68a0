import type { Channel } from "../providers/contract/channel.js";
import type { ProviderAdapterLookup } from "../providers/contract/provider-adapter-lookup.js";
import type { VideoTaskCapability } from "../providers/contract/video-task-capability.js";

/** The video task capability of a channel's protocol (its adapter's `videoTasks`), if it has one. */
export function findVideoTaskCapability(
  findAdapter: ProviderAdapterLookup,
  channel: Pick<Channel, "type">,
): VideoTaskCapability | undefined {
  return findAdapter(channel.type).videoTasks;
}
