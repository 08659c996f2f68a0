import { InvalidRequestError } from "../errors/gateway-error.js";
import type { RelayAttemptInput } from "../providers/contract/relay-attempt-input.js";
import type { VideoSubmissionCall } from "../providers/contract/video-submission-call.js";
import type { SubmittedVideoTask, VideoTaskCapability } from "../providers/contract/video-task-capability.js";

/**
 * One attempt of a video submission, for every adapter with `videoTasks` (which passes its own capability, so
 * provider code never looks the registry up): submit (or remix) through it, then store the task and deliver its answer. An upstream refusal throws (the relay tries the next
 * channel or refunds); the reservation is handed to the task only once the upstream accepted.
 */
export async function relayVideoSubmission(
  capability: VideoTaskCapability,
  call: VideoSubmissionCall,
  input: RelayAttemptInput,
): Promise<void> {
  const upstreamCall = { attempt: input.attempt, upstreamHeaders: input.upstreamHeaders, signal: input.signal };
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
