import type { ChannelType } from "./contract/channel-type.js";
import type { ChannelSettingsShape } from "./contract/channel-settings-shape.js";

/** Why a channel's settings do not fit its type: the key at fault and a sentence an operator can act on. */
export interface ChannelSettingsProblem {
  key: string;
  message: string;
}

/**
 * Checks a channel's `settings` against the shape its type's adapter declares (`ProviderAdapter.settingsShape`, which
 * the caller looks up: this module knows no adapter): unknown keys, missing required keys and values of the wrong
 * form are refused, each named. Undefined when the settings fit.
 */
export function findChannelSettingsProblem(
  type: ChannelType,
  settings: unknown,
  declaredShape: ChannelSettingsShape | undefined,
): ChannelSettingsProblem | undefined {
  const shape: ChannelSettingsShape = declaredShape ?? {};
  const known = Object.keys(shape);
  const takes = known.length > 0 ? `${type} channels take ${known.join(", ")}` : `${type} channels take no settings`;
  if (settings === undefined || settings === null) settings = {};
  if (typeof settings !== "object" || Array.isArray(settings))
    return { key: "settings", message: `settings must be an object (${takes}).` };
  const given = settings as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(shape, key)) return { key, message: `settings: unknown key "${key}" (${takes}).` };
  }
  for (const [key, rule] of Object.entries(shape)) {
    if (rule === undefined) continue;
    const value = given[key];
    if (value === undefined) {
      if (rule.required) return { key, message: `settings: "${key}" is required for ${type} channels.` };
      continue;
    }
    if (typeof value !== "string" || !rule.pattern.test(value))
      return { key, message: `settings: "${key}" must look like "${rule.example}".` };
  }
  return undefined;
}
