import type { ChannelTimeouts } from "../config/gateway-config.js";
import type { KeyCipher } from "../keys/create-key-cipher.js";
import { isChannelType } from "../providers/contract/is-channel-type.js";
import type { ChannelRecord } from "../store/channels/channel-record.js";
import type { Channel } from "../providers/contract/channel.js";
import { decryptChannelKeys } from "./decrypt-channel-keys.js";
import { readStoredProviderSettings } from "./stored-channel-settings.js";
import { readStoredChannelTimeouts, resolveChannelTimeouts } from "./stored-channel-timeouts.js";

/** A stored channel as the relay uses it, or undefined when its type has no adapter in this build. */
export function toChannel(
  record: ChannelRecord,
  keyCipher: KeyCipher,
  defaultTimeouts: ChannelTimeouts,
): Channel | undefined {
  if (!isChannelType(record.type)) return undefined;
  return {
    id: record.id,
    name: record.name,
    type: record.type,
    baseUrl: record.baseUrl.replace(/\/+$/, ""),
    keys: decryptChannelKeys(keyCipher, record.keysEncrypted),
    models: record.models,
    modelMapping: record.modelMapping,
    groups: record.groups,
    priority: record.priority,
    weight: record.weight,
    enabled: record.enabled,
    source: record.source,
    timeouts: resolveChannelTimeouts(readStoredChannelTimeouts(record.settings), defaultTimeouts),
    settings: readStoredProviderSettings(record.settings),
  };
}
