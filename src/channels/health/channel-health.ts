import type { ChannelAttempt } from "../../providers/contract/channel-attempt.js";
import type { StoredChannelHealthRules } from "../../store/channel-health/channel-health-rules-queries.js";

/** One change of a channel's or key's health, as metrics, logs and the webhook report it. */
export interface ChannelHealthTransition {
  channelId: number;
  channelName: string;
  /** Undefined for the whole channel. */
  keyIndex: number | undefined;
  from: "healthy" | "auto_disabled" | "disabled";
  to: "healthy" | "auto_disabled" | "disabled";
  reason: string;
  upstreamStatus: number | null;
  /** unix seconds */
  time: number;
}

export interface ChannelHealth {
  /** Counts a failed attempt; enough credential failures in the window take the channel or key out. Never throws. */
  reportFailure(attempt: ChannelAttempt, error: unknown, requestId: string): void;
  /** A success clears the attempt's failure count. */
  reportSuccess(attempt: ChannelAttempt): void;
  /**
   * An administrator puts a channel or key back (`enabled`), or takes it out until they put it back (probes leave
   * it alone). Resolves once this instance routes accordingly.
   */
  setByAdministrator(channelId: number, keyIndex: number | undefined, enabled: boolean): Promise<void>;
  /** Tests every automatically disabled channel and key once, putting back those that pass. */
  probeOnce(): Promise<void>;
  /** Probes every `probe_interval_seconds` until stop. */
  startProbing(): void;
  /** The rules in force: an administrator's (stored, shared by every instance) or else the config file's. */
  readRules(): StoredChannelHealthRules;
  /** Stores an administrator's rules and applies them here; the caller tells the other instances. */
  updateRules(change: Partial<StoredChannelHealthRules>): Promise<StoredChannelHealthRules>;
  /** Re-reads the stored rules (at start, and when another instance announces a change). */
  refreshRules(): Promise<void>;
  stop(): Promise<void>;
}
