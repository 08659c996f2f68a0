export type ChannelSource = "config" | "api";

export interface ChannelRecord {
  id: number;
  name: string;
  /** upstream protocol, for example `openai` or `native` */
  type: string;
  baseUrl: string;
  /** the channel's upstream keys, encrypted as one opaque value by the caller */
  keysEncrypted: string;
  /** model names this channel serves, as clients send them */
  models: string[];
  /** our model name → upstream model name */
  modelMapping: Record<string, string>;
  groups: string[];
  priority: number;
  weight: number;
  enabled: boolean;
  source: ChannelSource;
  /** timeouts and other per-channel settings, stored as JSON */
  settings: Record<string, unknown>;
  createdTime: number;
}
