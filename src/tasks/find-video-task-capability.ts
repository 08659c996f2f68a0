import type { Channel } from "../channels/channel.js";
import { findProviderAdapter } from "../providers/find-provider-adapter.js";
import type { VideoTaskCapability } from "./video-task-capability.js";

/** The video task capability of a channel's protocol (its adapter's `videoTasks`), if it has one. */
export function findVideoTaskCapability(channel: Pick<Channel, "type">): VideoTaskCapability | undefined {
  return findProviderAdapter(channel.type).videoTasks;
}
