import type { ChannelAttempt } from "../providers/contract/channel-attempt.js";
import type { ProviderAdapterLookup } from "../providers/contract/provider-adapter-lookup.js";
import { buildUpstreamHeaders } from "../upstream/build-upstream-headers.js";
import type { ClientGoneSignal } from "../http/client-gone-signal.js";
import type { VideoCallInput } from "../providers/contract/video-task-capability.js";

/** The input of a poll or content call outside the relay: the channel key carried as its adapter does. */
export function buildVideoCallInput(
  findAdapter: ProviderAdapterLookup,
  attempt: ChannelAttempt,
  signal: ClientGoneSignal,
): VideoCallInput {
  const credentials = findAdapter(attempt.channel.type).credentialHeaders(attempt.upstreamKey);
  return { attempt, signal, upstreamHeaders: (options) => buildUpstreamHeaders(credentials, options) };
}
