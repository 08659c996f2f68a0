import type { components } from "../../generated/types/management.js";
import { InvalidRequestError } from "../errors/gateway-error.js";
import type { ChannelRecord } from "../store/channels/channel-record.js";
import { insertChannel } from "../store/channels/insert-channel.js";
import { channelMessages } from "./channel-messages.js";
import type { GatewayContext } from "../gateway-context.js";
import type { ChannelServicesContext } from "./channel-services-context.js";
import { collectRequestKeys } from "./collect-request-keys.js";
import { encryptChannelKeys } from "./encrypt-channel-keys.js";
import { isUniqueViolation } from "./is-unique-violation.js";
import { normalizeBaseUrl } from "./normalize-base-url.js";
import { toStoredChannelSettings } from "./stored-channel-settings.js";
import { assertChannelSettingsFit } from "./assert-channel-settings-fit.js";

type CreateChannelRequest = components["schemas"]["CreateChannelRequest"];

/** Stores a new `api` channel; the caller reloads the router so new requests use it at once. */
export async function createApiChannel(
  context: ChannelServicesContext & Pick<GatewayContext, "findAdapter">,
  request: CreateChannelRequest,
): Promise<ChannelRecord> {
  const keys = collectRequestKeys(request);
  if (keys === undefined) throw new InvalidRequestError(channelMessages.keyRequired, { param: "key" });
  assertChannelSettingsFit(context.findAdapter, request.type, request.settings);
  try {
    return await insertChannel(context.database.db, {
      name: request.name,
      type: request.type,
      baseUrl: normalizeBaseUrl(request.base_url),
      keysEncrypted: encryptChannelKeys(context.keyCipher, keys),
      models: [...new Set(request.models)],
      modelMapping: request.model_mapping ?? {},
      groups: [...new Set(request.groups ?? ["default"])],
      priority: request.priority ?? 0,
      weight: request.weight ?? 1,
      enabled: request.enabled ?? true,
      settings: toStoredChannelSettings({ timeouts: request.timeouts, provider: request.settings }),
      createdTime: context.now(),
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new InvalidRequestError(channelMessages.nameTaken(request.name), { param: "name" });
    throw error;
  }
}
