import type { providerRegistry } from "../registry.js";

/** A channel `type`: one of the registered adapters (and, checked in registry.ts, of the spec's enum). */
export type ChannelType = keyof typeof providerRegistry;
