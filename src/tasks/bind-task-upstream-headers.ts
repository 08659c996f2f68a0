import type { ChannelAttempt } from "../channels/channel-router.js";
import { findProviderAdapter } from "../providers/find-provider-adapter.js";
import { buildUpstreamHeaders } from "../relay/build-upstream-headers.js";
import type { VideoCallInput } from "./video-task-capability.js";

/** For polls and downloads (outside the relay): the attempt's key as its adapter carries it, as the relay binds it. */
export function bindTaskUpstreamHeaders(attempt: ChannelAttempt): VideoCallInput["upstreamHeaders"] {
  const credentials = findProviderAdapter(attempt.channel.type).credentialHeaders(attempt.upstreamKey);
  return (options) => buildUpstreamHeaders(credentials, options);
}
