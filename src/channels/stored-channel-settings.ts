import type { ChannelSettings } from "../providers/contract/channel-settings-shape.js";

/**
 * The protocol settings a channel's stored settings JSON holds (beside its timeouts, under `provider`), as given
 * by the operator and checked against the type's shape when written.
 */
export function readStoredProviderSettings(settings: Record<string, unknown>): ChannelSettings {
  const raw = settings.provider;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return {};
  return raw as ChannelSettings;
}

/** The stored settings JSON of a channel: its timeouts and its protocol settings (empty parts left out). */
export function toStoredChannelSettings(parts: {
  timeouts?: object | undefined;
  provider?: ChannelSettings | undefined;
}): Record<string, unknown> {
  const stored: Record<string, unknown> = {};
  if (parts.timeouts !== undefined) stored.timeouts = parts.timeouts;
  if (parts.provider !== undefined && Object.keys(parts.provider).length > 0) stored.provider = parts.provider;
  return stored;
}
