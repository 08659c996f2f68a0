import type { components } from "../../../generated/types/management.js";

/** A channel `type`: one of the spec's ChannelType enum (the registry files one adapter under each). */
export type ChannelType = components["schemas"]["ChannelType"];
