import { NotFoundError } from "../errors/gateway-error.js";
import { deleteChannel } from "../store/channels/delete-channel.js";
import { channelMessages } from "./channel-messages.js";
import type { ChannelServicesContext } from "./channel-services-context.js";
import { findApiChannel } from "./find-api-channel.js";

/** Removes an `api` channel; requests already holding it finish, the reloaded router no longer plans it. */
export async function deleteApiChannel(context: ChannelServicesContext, channelId: number): Promise<void> {
  await findApiChannel(context, channelId);
  if (!(await deleteChannel(context.database.db, channelId, { onlySource: "api" })))
    throw new NotFoundError(channelMessages.notFound);
}
