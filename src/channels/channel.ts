import type { ChannelTimeouts } from "../config/gateway-config.js";

/** One upstream account, as the relay uses it (keys decrypted, JSON columns parsed). */
export interface Channel {
  id: number;
  name: string;
  /** The upstream protocol. */
  type: "openai" | "native";
  /** Without a trailing slash, e.g. http://127.0.0.1:9001 (the adapter appends /v1/… or /v1beta/…). */
  baseUrl: string;
  /** Upstream credentials, used round-robin. Never logged, never returned whole. */
  keys: string[];
  /** Model names clients use (before mapping). */
  models: string[];
  /** Client model name → upstream model name. */
  modelMapping: Record<string, string>;
  groups: string[];
  /** Higher first. */
  priority: number;
  /** Random by weight within one priority. */
  weight: number;
  enabled: boolean;
  source: "config" | "api";
  timeouts: ChannelTimeouts;
}
