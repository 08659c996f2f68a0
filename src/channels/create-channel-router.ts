import { listAllChannels } from "../store/channels/list-all-channels.js";
import type { Channel } from "../providers/contract/channel.js";
import type { ChannelRouter, RoutingToken } from "./channel-router.js";
import type { ChannelAttempt } from "../providers/contract/channel-attempt.js";
import type { ChannelServicesContext } from "./channel-services-context.js";
import { createChannelCooldowns } from "./create-channel-cooldowns.js";
import { orderChannelsForGroup } from "./order-channels-for-group.js";
import { toChannel } from "./to-channel.js";

export interface ChannelRouterOptions {
  /** Uniform in [0, 1); injectable so tests can fix the weighted draws. */
  random?: () => number;
  /** Epoch milliseconds; by default the gateway clock (context.now()), so tests that move it move cooldowns too. */
  now?: () => number;
}

interface ChannelIndex {
  byId: Map<number, Channel>;
  /** Enabled channels only, by the model names clients send. */
  byModel: Map<string, Channel[]>;
  /** Disabled channels, by the model names they list. */
  disabledByModel: Map<string, Channel[]>;
}

/**
 * The in-memory routing table over the store's channels (see ChannelRouter for the rules). Cooldowns and key
 * rotation live in this process only: each instance learns about failing upstreams from its own traffic.
 */
export async function createChannelRouter(
  context: ChannelServicesContext,
  options: ChannelRouterOptions = {},
): Promise<ChannelRouter> {
  const random = options.random ?? Math.random;
  const now = options.now ?? (() => context.now() * 1000);
  const { relay } = context.config;
  const cooldowns = createChannelCooldowns({
    failuresBeforeCooldown: relay.cooldownAfterFailures,
    cooldownMs: relay.cooldownSeconds * 1000,
    now,
  });
  const keyCursors = new Map<number, number>();
  let index: ChannelIndex = { byId: new Map(), byModel: new Map(), disabledByModel: new Map() };
  let reloading: Promise<void> = Promise.resolve();

  async function loadIndex(): Promise<ChannelIndex> {
    const next: ChannelIndex = { byId: new Map(), byModel: new Map(), disabledByModel: new Map() };
    for (const record of await listAllChannels(context.database.db)) {
      let channel: Channel | undefined;
      try {
        channel = toChannel(record, context.keyCipher, context.config.defaultTimeouts);
      } catch (error) {
        // Keys written under another GATEWAY_SECRET: routing to this channel could only fail upstream.
        context.logger.error(
          { err: error, channelId: record.id },
          "cannot read the keys of a channel; it is left out of routing",
        );
        continue;
      }
      if (!channel) {
        context.logger.warn(
          { channelId: record.id, type: record.type },
          "channel type has no adapter; it is left out of routing",
        );
        continue;
      }
      next.byId.set(channel.id, channel);
      const byModel = channel.enabled ? next.byModel : next.disabledByModel;
      for (const model of new Set(channel.models)) {
        const serving = byModel.get(model);
        if (serving) serving.push(channel);
        else byModel.set(model, [channel]);
      }
    }
    return next;
  }

  function resolveGroups(token: RoutingToken, userGroup: string): { groups: readonly string[]; auto: boolean } {
    const group = token.group || userGroup;
    return group === "auto"
      ? { groups: token.autoGroups ?? context.config.autoGroups, auto: true }
      : { groups: [group], auto: false };
  }

  function nextKey(channel: Channel): string {
    if (channel.keys.length === 0) return "";
    const cursor = keyCursors.get(channel.id) ?? 0;
    keyCursors.set(channel.id, (cursor + 1) % channel.keys.length);
    return channel.keys[cursor % channel.keys.length];
  }

  const router: ChannelRouter = {
    planAttempts(model, token, userGroup, maxAttempts) {
      const serving = index.byModel.get(model);
      if (!serving || maxAttempts <= 0) return [];
      const { groups, auto } = resolveGroups(token, userGroup);
      const planned: Array<{ channel: Channel; group: string }> = [];
      const seen = new Set<number>();
      for (const group of groups) {
        const inGroup = serving.filter((channel) => channel.groups.includes(group) && !seen.has(channel.id));
        if (inGroup.length === 0) continue;
        for (const channel of orderChannelsForGroup(inGroup, random)) {
          seen.add(channel.id);
          planned.push({ channel, group });
        }
        if (!(auto && token.crossGroupRetry)) break;
      }
      const ready = planned.filter(({ channel }) => !cooldowns.isCoolingDown(channel.id));
      const coolingDown = planned.filter(({ channel }) => cooldowns.isCoolingDown(channel.id));
      return [...ready, ...coolingDown].slice(0, maxAttempts).map(
        ({ channel, group }): ChannelAttempt => ({
          channel,
          group,
          upstreamModel: channel.modelMapping[model] ?? model,
          upstreamKey: nextKey(channel),
        }),
      );
    },
    planAttemptOn(model, token, userGroup, target) {
      const channel = index.byModel.get(model)?.find((serving) => serving.id === target.channelId);
      const upstreamKey = channel?.keys[target.keyIndex];
      if (channel === undefined || upstreamKey === undefined) return undefined;
      const group = resolveGroups(token, userGroup).groups.find((candidate) => channel.groups.includes(candidate));
      if (group === undefined) return undefined;
      return { channel, group, upstreamModel: channel.modelMapping[model] ?? model, upstreamKey };
    },
    reportSuccess(channelId) {
      cooldowns.recordSuccess(channelId);
    },
    reportFailure(channelId, requestId) {
      if (cooldowns.recordFailure(channelId)) {
        context.logger.warn(
          { requestId, channelId, failures: relay.cooldownAfterFailures, cooldownSeconds: relay.cooldownSeconds },
          "channel failed repeatedly; it cools down",
        );
      }
    },
    servesModel(model, token, userGroup) {
      const { groups } = resolveGroups(token, userGroup);
      return (index.byModel.get(model) ?? []).some((channel) => channel.groups.some((group) => groups.includes(group)));
    },
    listDisabledChannels(model, token, userGroup) {
      const { groups } = resolveGroups(token, userGroup);
      return (index.disabledByModel.get(model) ?? []).filter((channel) =>
        channel.groups.some((group) => groups.includes(group)),
      );
    },
    listServedModels() {
      return [...index.byModel.keys()].sort();
    },
    listModels(token, userGroup) {
      const { groups } = resolveGroups(token, userGroup);
      const models = new Set<string>();
      for (const [model, serving] of index.byModel) {
        if (serving.some((channel) => channel.groups.some((group) => groups.includes(group)))) models.add(model);
      }
      return [...models].sort();
    },
    reload() {
      // Serialised: an older read finishing last must not overwrite a newer one, and each caller's own change
      // is visible once its reload resolves.
      const next = reloading.then(async () => {
        index = await loadIndex();
        const ids = new Set(index.byId.keys());
        cooldowns.retain(ids);
        for (const channelId of keyCursors.keys()) if (!ids.has(channelId)) keyCursors.delete(channelId);
      });
      reloading = next.catch(() => undefined);
      return next;
    },
    findChannel(channelId) {
      return index.byId.get(channelId);
    },
    secondsUntilAnyReady(attempts) {
      let soonestMs = Number.POSITIVE_INFINITY;
      for (const { channel } of attempts) soonestMs = Math.min(soonestMs, cooldowns.remainingMs(channel.id));
      return attempts.length === 0 || soonestMs === 0 ? 0 : Math.ceil(soonestMs / 1000);
    },
    countChannelsInCooldown() {
      let count = 0;
      for (const channelId of index.byId.keys()) if (cooldowns.isCoolingDown(channelId)) count += 1;
      return count;
    },
  };
  await router.reload();
  return router;
}
