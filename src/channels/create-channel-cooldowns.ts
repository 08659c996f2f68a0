export interface ChannelCooldowns {
  isCoolingDown(channelId: number): boolean;
  /** Milliseconds until the channel may be tried again; 0 when it may be now. */
  remainingMs(channelId: number): number;
  /** Returns true when this failure started a cooldown. */
  recordFailure(channelId: number): boolean;
  recordSuccess(channelId: number): void;
  /** Forgets channels that no longer exist. */
  retain(channelIds: ReadonlySet<number>): void;
}

export interface ChannelCooldownOptions {
  /** Consecutive failures that start a cooldown; 0 turns cooldowns off. */
  failuresBeforeCooldown: number;
  cooldownMs: number;
  /** Epoch milliseconds. */
  now: () => number;
}

/**
 * A small circuit breaker per channel. Once the cooldown has passed the channel is eligible again (half open), but
 * its failure count is kept, so the first request that fails on it cools it down again at once; one success
 * closes the breaker and clears the count.
 */
export function createChannelCooldowns(options: ChannelCooldownOptions): ChannelCooldowns {
  const states = new Map<number, { consecutiveFailures: number; coolingUntil: number }>();
  return {
    isCoolingDown(channelId) {
      const state = states.get(channelId);
      return state !== undefined && state.coolingUntil > options.now();
    },
    remainingMs(channelId) {
      const state = states.get(channelId);
      return state === undefined ? 0 : Math.max(0, state.coolingUntil - options.now());
    },
    recordFailure(channelId) {
      const state = states.get(channelId) ?? { consecutiveFailures: 0, coolingUntil: 0 };
      state.consecutiveFailures += 1;
      states.set(channelId, state);
      if (options.failuresBeforeCooldown <= 0 || state.consecutiveFailures < options.failuresBeforeCooldown)
        return false;
      state.coolingUntil = options.now() + options.cooldownMs;
      return true;
    },
    recordSuccess(channelId) {
      states.delete(channelId);
    },
    retain(channelIds) {
      for (const channelId of states.keys()) if (!channelIds.has(channelId)) states.delete(channelId);
    },
  };
}
