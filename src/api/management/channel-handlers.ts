import type { components, operations } from "../../../generated/types/management.js";
import type { StoredChannelHealthRules } from "../../store/channel-health/channel-health-rules-queries.js";
import { recordAudit } from "../../audit/record-audit.js";
import { assertAdministrator } from "../../channels/assert-administrator.js";
import { channelMessages } from "../../channels/channel-messages.js";
import { createApiChannel } from "../../channels/create-api-channel.js";
import { deleteApiChannel } from "../../channels/delete-api-channel.js";
import { toChannelHealthView } from "../../channels/health/to-channel-health-view.js";
import { testAllChannels } from "../../channels/test-all-channels.js";
import { testAndRecordChannel } from "../../channels/test-and-record-channel.js";
import { InvalidRequestError, NotFoundError } from "../../errors/gateway-error.js";
import { deleteChannelHealthRows } from "../../store/channel-health/channel-health-queries.js";
import { listChannelLastTests } from "../../store/channel-health/channel-last-test-queries.js";
import type { ChannelRecord } from "../../store/channels/channel-record.js";
import { toChannelView } from "../../channels/to-channel-view.js";
import { updateApiChannel } from "../../channels/update-api-channel.js";
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
  | "testChannel"
  | "testAllChannels"
  | "setChannelHealth"
  | "getChannelHealthRules"
  | "updateChannelHealthRules";

/**
 * The channel operations (administrators only): typed input → channel service → envelope, keys masked. The list and
 * detail answers carry each channel's health and last test.
 */
export function createChannelHandlers(context: GatewayContext): Record<ChannelOperationId, OperationHandler> {
  const { db } = context.database;
  const view = (record: Parameters<typeof toChannelView>[0]) => toChannelView(record, context.keyCipher);
  // This instance reloads at once; the others hear of it through the change bus (Redis), when there is one.
  const applyChannelChange = async () => {
    await context.channelRouter.reload();
    await context.channelChanges.publish();
  };
  const viewsWithHealth = async (records: readonly ChannelRecord[]) => {
    const lastTests = await listChannelLastTests(
      db,
      records.map((record) => record.id),
    );
    const nowMs = context.now() * 1000;
    return records.map((record) => {
      const channel = view(record);
      return {
        ...channel,
        ...toChannelHealthView(context.channelRouter, record.id, channel.keys.length, lastTests.get(record.id), nowMs),
      };
    });
  };
  return {
    async listChannels(request, response) {
      assertAdministrator(getAuthenticatedUser(response));
      const { page, size } = readPageQuery(request);
      const [channels, total] = await Promise.all([listChannels(db, toPageWindow(page, size)), countChannels(db)]);
      sendSuccess(response, { items: await viewsWithHealth(channels), total, page, page_size: size });
    },
    async getChannel(request, response) {
      assertAdministrator(getAuthenticatedUser(response));
      const channel = await findChannelById(db, Number(readPathParameter(request, "id")));
      if (!channel) throw new NotFoundError(channelMessages.notFound);
      sendSuccess(response, (await viewsWithHealth([channel]))[0]);
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
      // Positions of replaced keys no longer name the keys their health was about.
      if (body.key !== undefined || body.keys !== undefined)
        await deleteChannelHealthRows(db, channel.id, { keysOnly: true });
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
      await deleteChannelHealthRows(db, channelId, { keysOnly: false });
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
      const { tested_time: _testedTime, ...result } = await testAndRecordChannel(
        context,
        Number(readPathParameter(request, "id")),
        body.model,
      );
      sendSuccess(response, result);
    },
    async testAllChannels(_request, response) {
      assertAdministrator(getAuthenticatedUser(response));
      sendSuccess(response, { items: await testAllChannels(context) });
    },
    async getChannelHealthRules(_request, response) {
      assertAdministrator(getAuthenticatedUser(response));
      sendSuccess(response, toRulesView(readHealthRules(context)));
    },
    async updateChannelHealthRules(request, response) {
      const actor = getAuthenticatedUser(response);
      assertAdministrator(actor);
      const body = request.body as JsonRequestBody<operations["updateChannelHealthRules"]>;
      const before = toRulesView(readHealthRules(context));
      const rules = await context.channelHealth!.updateRules({
        ...(body.disable_after_failures !== undefined ? { disableAfterFailures: body.disable_after_failures } : {}),
        ...(body.failure_window_seconds !== undefined ? { failureWindowSeconds: body.failure_window_seconds } : {}),
        ...(body.probe_interval_seconds !== undefined ? { probeIntervalSeconds: body.probe_interval_seconds } : {}),
      });
      await context.channelChanges.publish();
      await recordAudit(context, actor, {
        action: "channel.health.rules",
        target: "channel-health-rules",
        before,
        after: toRulesView(rules),
      });
      sendSuccess(response, toRulesView(rules));
    },
    async setChannelHealth(request, response) {
      const actor = getAuthenticatedUser(response);
      assertAdministrator(actor);
      const body = request.body as JsonRequestBody<operations["setChannelHealth"]>;
      const channelId = Number(readPathParameter(request, "id"));
      const record = await findChannelById(db, channelId);
      if (!record) throw new NotFoundError(channelMessages.notFound);
      const keyCount = view(record).keys.length;
      if (body.key_index !== undefined && body.key_index >= keyCount)
        throw new InvalidRequestError(channelMessages.noSuchKey(channelId, body.key_index), { param: "key_index" });
      await context.channelHealth?.setByAdministrator(channelId, body.key_index, body.enabled);
      await recordAudit(context, actor, {
        action: body.enabled ? "channel.health.enable" : "channel.health.disable",
        target: body.key_index === undefined ? `channel:${channelId}` : `channel:${channelId}:key:${body.key_index}`,
      });
      sendSuccess(response, (await viewsWithHealth([record]))[0]);
    },
  };
}

function readHealthRules(context: GatewayContext): StoredChannelHealthRules {
  return context.channelHealth?.readRules() ?? context.config.channelHealth;
}

function toRulesView(rules: StoredChannelHealthRules): components["schemas"]["ChannelHealthRules"] {
  return {
    disable_after_failures: rules.disableAfterFailures,
    failure_window_seconds: rules.failureWindowSeconds,
    probe_interval_seconds: rules.probeIntervalSeconds,
  };
}
