import type { components } from "../../generated/types/management.js";
import type { KeyCipher } from "../keys/create-key-cipher.js";
import { maskKey } from "../keys/mask-key.js";
import type { ChannelRecord } from "../store/channels/channel-record.js";
import { decryptChannelKeys } from "./decrypt-channel-keys.js";
import { readStoredProviderSettings } from "./stored-channel-settings.js";
import { readStoredChannelTimeouts } from "./stored-channel-timeouts.js";

type ChannelView = components["schemas"]["Channel"];

/**
 * A channel as the admin API shows it: keys masked (first 4, asterisks, last 4). `timeouts` shows what the channel
 * sets itself (absent fields follow the gateway default); config channels carry all three, resolved from the file.
 */
export function toChannelView(record: ChannelRecord, keyCipher: KeyCipher): ChannelView {
  const timeouts = readStoredChannelTimeouts(record.settings);
  const settings = readStoredProviderSettings(record.settings);
  return {
    id: record.id,
    name: record.name,
    type: record.type as ChannelView["type"],
    base_url: record.baseUrl,
    keys: readMaskedKeys(record.keysEncrypted, keyCipher),
    models: record.models,
    model_mapping: record.modelMapping,
    groups: record.groups,
    priority: record.priority,
    weight: record.weight,
    enabled: record.enabled,
    source: record.source,
    ...(Object.keys(timeouts).length > 0 ? { timeouts } : {}),
    ...(Object.keys(settings).length > 0 ? { settings } : {}),
    created_time: record.createdTime,
  };
}

function readMaskedKeys(keysEncrypted: string, keyCipher: KeyCipher): string[] {
  try {
    return decryptChannelKeys(keyCipher, keysEncrypted).map(maskKey);
  } catch {
    // Written under another GATEWAY_SECRET: the list must still open so an administrator can replace the keys.
    return [];
  }
}
