import type { Channel } from "../providers/contract/channel.js";

/**
 * The order in which one group's channels are tried: priority tiers, highest first; within a tier a weighted
 * random draw without replacement, so a channel of weight 2 comes first twice as often as one of weight 1.
 * Weight 0 channels follow the weighted ones of their tier (they take traffic only when those fail), in a
 * uniform random order among themselves.
 */
export function orderChannelsForGroup(channels: readonly Channel[], random: () => number): Channel[] {
  // One channel has one order (the common case of a model served once per group): no tiers to build, no draw.
  if (channels.length === 1) return [channels[0]!];
  const tiers = new Map<number, Channel[]>();
  for (const channel of channels) {
    const tier = tiers.get(channel.priority);
    if (tier) tier.push(channel);
    else tiers.set(channel.priority, [channel]);
  }
  const priorities = [...tiers.keys()].sort((left, right) => right - left);
  return priorities.flatMap((priority) => {
    const tier = tiers.get(priority)!;
    const weighted = tier.filter((channel) => channel.weight > 0);
    const unweighted = tier.filter((channel) => channel.weight <= 0);
    return [
      ...drawByWeight(weighted, (channel) => channel.weight, random),
      ...drawByWeight(unweighted, () => 1, random),
    ];
  });
}

function drawByWeight(channels: Channel[], weightOf: (channel: Channel) => number, random: () => number): Channel[] {
  const remaining = [...channels];
  const ordered: Channel[] = [];
  while (remaining.length > 0) {
    const total = remaining.reduce((sum, channel) => sum + weightOf(channel), 0);
    const target = random() * total;
    let cumulative = 0;
    // A random() of exactly 1 (a misbehaving injected source) still lands on the last channel.
    let index = remaining.length - 1;
    for (let candidate = 0; candidate < remaining.length; candidate += 1) {
      cumulative += weightOf(remaining[candidate]);
      if (target < cumulative) {
        index = candidate;
        break;
      }
    }
    ordered.push(...remaining.splice(index, 1));
  }
  return ordered;
}
