import type { components } from "../../../generated/types/management.js";

/** A channel's protocol settings (`settings` of a channel), as the spec names them. */
export type ChannelSettings = components["schemas"]["ChannelSettings"];

/** What one settings key of a channel type must hold: whether it must be given, and the form of its value. */
export interface ChannelSettingRule {
  required: boolean;
  /** The form a value must have; `example` shows it in the refusal. */
  pattern: RegExp;
  example: string;
}

/**
 * The settings a channel type takes, declared by its adapter: every key it knows with its rule. A key not listed
 * is refused, so a typo fails at start (configuration file) or with a 400 (admin API) instead of being ignored.
 */
export type ChannelSettingsShape = { readonly [Key in keyof ChannelSettings]?: ChannelSettingRule };
