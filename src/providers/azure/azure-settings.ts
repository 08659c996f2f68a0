import type { Channel } from "../contract/channel.js";
import type { ChannelSettingsShape } from "../contract/channel-settings-shape.js";

/** `v1`: Azure's v1 surface (`/openai/v1/...`, no api-version); otherwise a dated GA or preview api-version. */
const apiVersionPattern = /^(v1|\d{4}-\d{2}-\d{2}(-preview)?)$/;

/** An `azure` channel's settings: the api-version its deployments are called with (or `v1`). */
export const azureSettingsShape: ChannelSettingsShape = {
  api_version: { required: true, pattern: apiVersionPattern, example: "2024-10-21" },
};

/** The channel's api version (checked against azureSettingsShape when the channel was written). */
export function readAzureApiVersion(channel: Channel): string {
  return channel.settings.api_version ?? "v1";
}
