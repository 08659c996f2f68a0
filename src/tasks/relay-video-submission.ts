import { InvalidRequestError } from "../errors/invalid-request-error.js";
import { findProviderAdapter } from "../providers/find-provider-adapter.js";
import type { RelayAttemptInput } from "../relay/run-relay.js";
import type { VideoSubmissionCall } from "./video-submission-call.js";
import type { SubmittedVideoTask } from "./video-task-capability.js";

/**
 * One attempt of a video submission, for every adapter with `videoTasks`: submit (or remix) through the channel's
 * capability, then store the task and deliver its answer. An upstream refusal throws (the relay tries the next
 * channel or refunds); the reservation is handed to the task only once the upstream accepted.
 */
export async function relayVideoSubmission(call: VideoSubmissionCall, input: RelayAttemptInput): Promise<void> {
  const capability = findProviderAdapter(input.attempt.channel.type).videoTasks;
  if (!capability) throw new Error(`channel type ${input.attempt.channel.type} has no video tasks`);
  const upstreamCall = { attempt: input.attempt, signal: input.signal };
  const remixOf = call.remixOfUpstreamTaskId;
  if (remixOf !== undefined && !capability.remix)
    throw new InvalidRequestError(`${call.submission.model} cannot be remixed on this channel.`, {
      param: "remix_from_video_id",
    });
  const submitted: SubmittedVideoTask =
    remixOf !== undefined && capability.remix
      ? await capability.remix(remixOf, call.submission, upstreamCall)
      : await capability.submit(call.submission, upstreamCall);
  input.deliver(await call.store(submitted, input));
}
