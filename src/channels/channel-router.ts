import type { Channel } from "../providers/contract/channel.js";
import type { ChannelAttempt } from "../providers/contract/channel-attempt.js";
import type { ChannelHealthRecord } from "../store/channel-health/channel-health-queries.js";
import type { AffinityTarget } from "./create-conversation-affinity.js";

/** What the router needs to know about the caller's token. */
export interface RoutingToken {
  /** The token's group; `auto` walks the configured auto_groups. Empty means the owner's group. */
  group: string;
  crossGroupRetry: boolean;
  /** `auto`'s groups for this token's owner (the configured auto_groups they may use); all of them when absent. */
  autoGroups?: readonly string[];
}

/**
 * Routing: model → channels in the token's group (for `auto`, the first group of
 * auto_groups that has one) → highest priority → weighted random; retries try other channels first; with `auto`
 * and cross_group_retry the retries continue into the next groups. Channels that keep failing cool down.
 */
export interface ChannelRouter {
  /**
   * The ordered attempts for one request, at most `maxAttempts` long, first choice first. Cooling-down channels
   * come last (probed only when nothing else is left). Empty when no enabled channel serves the model in the
   * token's group(s): the caller answers NoAvailableChannelError.
   *
   * `preferred` is the channel and key that served the request's conversation last (conversation affinity): when
   * that channel is among the planned ones and not cooling down it comes first, with that key, and the others keep
   * their order behind it as failovers.
   */
  planAttempts(
    model: string,
    token: RoutingToken,
    userGroup: string,
    maxAttempts: number,
    preferred?: AffinityTarget,
  ): ChannelAttempt[];
  /**
   * The one attempt on a given channel and key (a continuation of an upstream object made there), cooling down or
   * not. Undefined when that channel is gone, disabled, no longer serves the model in the token's group(s), or no
   * longer has that key.
   */
  planAttemptOn(
    model: string,
    token: RoutingToken,
    userGroup: string,
    target: { channelId: number; keyIndex: number },
  ): ChannelAttempt | undefined;
  reportSuccess(channelId: number): void;
  /**
   * Counts a retryable failure; after `cooldown_after_failures` in a row the channel cools down (logged with the id
   * of the request whose failure tipped it).
   */
  reportFailure(channelId: number, requestId: string): void;
  /** Whether an enabled channel of the token's group(s) lists this exact model name (cooling down or not). */
  servesModel(model: string, token: RoutingToken, userGroup: string): boolean;
  /**
   * The disabled channels of the token's group(s) that list the model: when a plan is empty, these tell a model
   * that is served but unavailable now (503) from one no channel serves (404).
   */
  listDisabledChannels(model: string, token: RoutingToken, userGroup: string): Channel[];
  /** Every model an enabled channel lists, whatever its groups, sorted (the start-up check of prices). */
  listServedModels(): string[];
  /** Models the token may reach (for GET /v1/models), sorted. */
  listModels(token: RoutingToken, userGroup: string): string[];
  /** Re-reads channels from the store (after an admin change). */
  reload(): Promise<void>;
  findChannel(channelId: number): Channel | undefined;
  /**
   * The channel's and its keys' health rows as this instance last read them (auto-disabled or disabled by an
   * administrator; none when healthy), and how long this instance's breaker keeps it cooling down.
   */
  readHealth(channelId: number): { records: readonly ChannelHealthRecord[]; coolingRemainingMs: number };
  /** Channels and keys out of routing by health now (for /metrics). */
  countAutoDisabled(): number;
  /** Channels cooling down now (for /metrics). */
  countChannelsInCooldown(): number;
  /**
   * Seconds until the first of these attempts' channels may be tried again, when every one of them is cooling down;
   * 0 when any may be tried now.
   */
  secondsUntilAnyReady(attempts: readonly ChannelAttempt[]): number;
}
