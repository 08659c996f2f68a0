import { deleteConfigChannelsExcept } from "../store/channels/delete-config-channels-except.js";
import { upsertConfigChannel } from "../store/channels/upsert-config-channel.js";
import type { ChannelServicesContext } from "./channel-services-context.js";
import { encryptChannelKeys } from "./encrypt-channel-keys.js";
import { toStoredChannelSettings } from "./stored-channel-settings.js";
import { toStoredChannelTimeouts } from "./stored-channel-timeouts.js";

/**
 * Makes the store's `config` channels match the configuration file: each configured channel is upserted by name
 * (keeping its id, so usage logs still point at it) and config channels no longer in the file are removed. The
 * file is the single source of truth for them, which is why the admin API refuses to change them.
 */
export async function syncConfigChannels(context: ChannelServicesContext): Promise<void> {
  const { db } = context.database;
  const createdTime = context.now();
  for (const channel of context.config.channels) {
    await upsertConfigChannel(db, {
      name: channel.name,
      type: channel.type,
      baseUrl: channel.baseUrl,
      keysEncrypted: encryptChannelKeys(context.keyCipher, channel.keys),
      models: channel.models,
      modelMapping: channel.modelMapping,
      groups: channel.groups,
      priority: channel.priority,
      weight: channel.weight,
      enabled: channel.enabled,
      settings: toStoredChannelSettings({
        timeouts: toStoredChannelTimeouts(channel.timeouts),
        provider: channel.settings,
      }),
      createdTime,
    });
  }
  const removed = await deleteConfigChannelsExcept(
    db,
    context.config.channels.map((channel) => channel.name),
  );
  if (removed > 0) context.logger.info({ removed }, "removed channels no longer in the configuration file");
}
