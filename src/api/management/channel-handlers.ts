import type { operations } from "../../../generated/types/management.js";
import { recordAudit } from "../../audit/record-audit.js";
import { assertAdministrator } from "../../channels/assert-administrator.js";
import { channelMessages } from "../../channels/channel-messages.js";
import { createApiChannel } from "../../channels/create-api-channel.js";
import { deleteApiChannel } from "../../channels/delete-api-channel.js";
import { testChannelUpstream } from "../../channels/test-channel-upstream.js";
import { toChannelView } from "../../channels/to-channel-view.js";
import { updateApiChannel } from "../../channels/update-api-channel.js";
import { NotFoundError } from "../../errors/not-found-error.js";
import type { GatewayContext } from "../../gateway-context.js";
import type { OperationHandler } from "../../http/operation-handler.js";
import type { JsonRequestBody } from "../../http/operation-types.js";
import { readPathParameter } from "../../http/read-path-parameter.js";
import { countChannels } from "../../store/channels/count-channels.js";
import { findChannelById } from "../../store/channels/find-channel-by-id.js";
import { listChannels } from "../../store/channels/list-channels.js";
import { toPageWindow } from "../../tokens/to-page-window.js";
import { getAuthenticatedUser } from "../../users/authenticated-request.js";
import { readPageQuery } from "./read-page-query.js";
import { sendSuccess } from "./send-success.js";

type ChannelOperationId =
  | "listChannels"
  | "getChannel"
  | "createChannel"
  | "updateChannel"
  | "deleteChannel"
  | "testChannel";

/** The six channel operations (administrators only): typed input → channel service → envelope, keys masked. */
export function createChannelHandlers(context: GatewayContext): Record<ChannelOperationId, OperationHandler> {
  const { db } = context.database;
  const view = (record: Parameters<typeof toChannelView>[0]) => toChannelView(record, context.keyCipher);
  // This instance reloads at once; the others hear of it through the change bus (Redis), when there is one.
  const applyChannelChange = async () => {
    await context.channelRouter.reload();
    await context.channelChanges.publish();
  };
  return {
    async listChannels(request, response) {
      assertAdministrator(getAuthenticatedUser(response));
      const { page, size } = readPageQuery(request);
      const [channels, total] = await Promise.all([listChannels(db, toPageWindow(page, size)), countChannels(db)]);
      sendSuccess(response, { items: channels.map(view), total, page, page_size: size });
    },
    async getChannel(request, response) {
      assertAdministrator(getAuthenticatedUser(response));
      const channel = await findChannelById(db, Number(readPathParameter(request, "id")));
      if (!channel) throw new NotFoundError(channelMessages.notFound);
      sendSuccess(response, view(channel));
    },
    async createChannel(request, response) {
      const actor = getAuthenticatedUser(response);
      assertAdministrator(actor);
      const channel = await createApiChannel(context, request.body as JsonRequestBody<operations["createChannel"]>);
      await applyChannelChange();
      await recordAudit(context, actor, {
        action: "channel.create",
        target: `channel:${channel.id}`,
        after: view(channel),
      });
      sendSuccess(response, view(channel));
    },
    async updateChannel(request, response) {
      const actor = getAuthenticatedUser(response);
      assertAdministrator(actor);
      const body = request.body as JsonRequestBody<operations["updateChannel"]>;
      const before = await findChannelById(db, body.id);
      const channel = await updateApiChannel(context, body);
      await applyChannelChange();
      await recordAudit(context, actor, {
        action: "channel.update",
        target: `channel:${channel.id}`,
        ...(before ? { before: view(before) } : {}),
        after: view(channel),
      });
      sendSuccess(response, view(channel));
    },
    async deleteChannel(request, response) {
      const actor = getAuthenticatedUser(response);
      assertAdministrator(actor);
      const channelId = Number(readPathParameter(request, "id"));
      const before = await findChannelById(db, channelId);
      await deleteApiChannel(context, channelId);
      await applyChannelChange();
      await recordAudit(context, actor, {
        action: "channel.delete",
        target: `channel:${channelId}`,
        ...(before ? { before: view(before) } : {}),
      });
      sendSuccess(response);
    },
    async testChannel(request, response) {
      assertAdministrator(getAuthenticatedUser(response));
      const body = (request.body ?? {}) as Partial<JsonRequestBody<operations["testChannel"]>>;
      sendSuccess(response, await testChannelUpstream(context, Number(readPathParameter(request, "id")), body.model));
    },
  };
}
