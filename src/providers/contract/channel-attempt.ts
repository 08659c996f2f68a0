import type { Channel } from "./channel.js";

/** One planned try of a request: a channel, the group it bills under, the mapped model and the key. */
export interface ChannelAttempt {
  channel: Channel;
  /** The group this attempt bills under (its ratio applies). */
  group: string;
  /** The upstream model name after the channel's model_mapping. */
  upstreamModel: string;
  /** The upstream key to use for this attempt (round-robin over channel.keys). */
  upstreamKey: string;
}
