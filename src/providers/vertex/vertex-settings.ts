import type { ChannelAttempt } from "../contract/channel-attempt.js";
import type { ChannelSettingsShape } from "../contract/channel-settings-shape.js";
import { readServiceAccount } from "./read-service-account.js";

/** A `vertex` channel's settings: its region, and the project when it is not the service account's own. */
export const vertexSettingsShape: ChannelSettingsShape = {
  region: { required: true, pattern: /^(global|[a-z]+-[a-z]+\d+)$/, example: "us-central1" },
  project_id: { required: false, pattern: /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/, example: "my-project" },
};

/**
 * The project and region an attempt's calls go to (the project defaults to the service account's). A key that is
 * not a service account leaves the project empty here: the token exchange, which comes first, refuses it clearly.
 */
export function readVertexLocation(attempt: ChannelAttempt): { projectId: string; region: string } {
  const settings = attempt.channel.settings;
  return { projectId: settings.project_id ?? readProjectOfKey(attempt.upstreamKey), region: settings.region ?? "" };
}

function readProjectOfKey(key: string): string {
  try {
    return readServiceAccount(key).projectId ?? "";
  } catch {
    return "";
  }
}
