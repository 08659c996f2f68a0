import type { components } from "../../generated/types/management.js";
import { InvalidRequestError, NotFoundError } from "../errors/gateway-error.js";
import type { ChannelRecord } from "../store/channels/channel-record.js";
import { updateChannel, type ChannelPatch } from "../store/channels/update-channel.js";
import { channelMessages } from "./channel-messages.js";
import type { GatewayContext } from "../gateway-context.js";
import type { ChannelServicesContext } from "./channel-services-context.js";
import { collectRequestKeys } from "./collect-request-keys.js";
import { encryptChannelKeys } from "./encrypt-channel-keys.js";
import { findApiChannel } from "./find-api-channel.js";
import { isUniqueViolation } from "./is-unique-violation.js";
import { normalizeBaseUrl } from "./normalize-base-url.js";
import { assertChannelSettingsFit } from "./assert-channel-settings-fit.js";
import { readStoredProviderSettings, toStoredChannelSettings } from "./stored-channel-settings.js";
import { readStoredChannelTimeouts } from "./stored-channel-timeouts.js";
import { isChannelType } from "../providers/contract/is-channel-type.js";

type UpdateChannelRequest = components["schemas"]["UpdateChannelRequest"];

/**
 * Applies the given fields to an `api` channel; lists, the mapping, keys, timeouts and settings are replaced whole.
 * A new type or new settings are checked together: the settings kept must fit a changed type.
 */
export async function updateApiChannel(
  context: ChannelServicesContext & Pick<GatewayContext, "findAdapter">,
  request: UpdateChannelRequest,
): Promise<ChannelRecord> {
  const current = await findApiChannel(context, request.id);
  const keys = collectRequestKeys(request);
  const settingsChange = request.settings !== undefined || request.type !== undefined;
  const settings = request.settings ?? readStoredProviderSettings(current.settings);
  const type = request.type ?? current.type;
  if (settingsChange && isChannelType(type)) assertChannelSettingsFit(context.findAdapter, type, settings);
  const timeoutsChange = request.timeouts !== undefined;
  const patch: ChannelPatch = {
    name: request.name,
    type: request.type,
    baseUrl: request.base_url === undefined ? undefined : normalizeBaseUrl(request.base_url),
    keysEncrypted: keys === undefined ? undefined : encryptChannelKeys(context.keyCipher, keys),
    models: request.models === undefined ? undefined : [...new Set(request.models)],
    modelMapping: request.model_mapping,
    groups: request.groups === undefined ? undefined : [...new Set(request.groups)],
    priority: request.priority,
    weight: request.weight,
    enabled: request.enabled,
    settings:
      settingsChange || timeoutsChange
        ? toStoredChannelSettings({
            timeouts: request.timeouts ?? readStoredChannelTimeouts(current.settings),
            provider: settings,
          })
        : undefined,
  };
  let updated: ChannelRecord | null;
  try {
    updated = await updateChannel(context.database.db, current.id, patch, { onlySource: "api" });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new InvalidRequestError(channelMessages.nameTaken(request.name ?? current.name), { param: "name" });
    throw error;
  }
  // Deleted between the read and the write.
  if (!updated) throw new NotFoundError(channelMessages.notFound);
  return updated;
}
