import { NotFoundError, PermissionError } from "../errors/gateway-error.js";
import type { ChannelRecord } from "../store/channels/channel-record.js";
import { findChannelById } from "../store/channels/find-channel-by-id.js";
import { channelMessages } from "./channel-messages.js";
import type { ChannelServicesContext } from "./channel-services-context.js";

/** The channel an admin change targets: 404 when absent, 403 when it comes from the configuration file. */
export async function findApiChannel(context: ChannelServicesContext, channelId: number): Promise<ChannelRecord> {
  const record = await findChannelById(context.database.db, channelId);
  if (!record) throw new NotFoundError(channelMessages.notFound);
  if (record.source === "config") throw new PermissionError(channelMessages.configReadOnly(channelId));
  return record;
}
