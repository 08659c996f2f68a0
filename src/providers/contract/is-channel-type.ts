import { channelTypeValues } from "../../../generated/types/management.js";
import type { ChannelType } from "./channel-type.js";

/** Whether a stored or configured type is one of the spec's channel types (each has an adapter: registry.ts). */
export function isChannelType(type: string): type is ChannelType {
  return (channelTypeValues as readonly string[]).includes(type);
}
