import type { Channel } from "../providers/contract/channel.js";
import { findProviderAdapter } from "../providers/find-provider-adapter.js";
import type { VideoTaskCapability } from "../providers/contract/video-task-capability.js";

/** The video task capability of a channel's protocol (its adapter's `videoTasks`), if it has one. */
export function findVideoTaskCapability(channel: Pick<Channel, "type">): VideoTaskCapability | undefined {
  return findProviderAdapter(channel.type).videoTasks;
}
