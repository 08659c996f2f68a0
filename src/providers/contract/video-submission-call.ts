import type { RelayAttemptInput } from "./relay-attempt-input.js";
import type { SubmittedVideoTask, VideoSubmission } from "./video-task-capability.js";

/**
 * The relay capability `videoSubmission`: a video task to send upstream on each planned channel (through that
 * channel adapter's `videoTasks`) until one accepts it; `store` then records the task, handing it the reservation,
 * and returns the client's answer.
 */
export interface VideoSubmissionCall {
  submission: VideoSubmission;
  /** The upstream id of the finished video to remix (the planner keeps only the channel that made it). */
  remixOfUpstreamTaskId?: string;
  store(submitted: SubmittedVideoTask, input: RelayAttemptInput): Promise<unknown>;
}
