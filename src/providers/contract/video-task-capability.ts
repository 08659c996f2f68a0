import type { OpenCheckedDownload } from "../../net/create-checked-download-opener.js";
import type { Readable } from "node:stream";
import type { ChannelAttempt } from "./channel-attempt.js";
import type { UpstreamHeaderOptions } from "./relay-attempt-input.js";
import type { ClientGoneSignal } from "../../http/client-gone-signal.js";
import type { TaskStatus } from "../../store/tasks/task-record.js";

/**
 * The documented upstream vocabulary for `metadata.output.task_status` (troubleshooting only). Each protocol maps its
 * own words onto it: OpenAI `queued` → PENDING, `in_progress` → RUNNING, `completed` → SUCCEEDED, `failed` → FAILED.
 */
export type UpstreamTaskStatus = "PENDING" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELED" | "UNKNOWN";

/** A reference image, already fetched (URLs through the SSRF-safe fetcher) or decoded from base64. */
export interface VideoReferenceImage {
  /** first_frame: image-to-video; last_frame: first-and-last-frame mode; reference: a reference (asset) image. */
  role: "first_frame" | "last_frame" | "reference";
  mimeType: string;
  data: Buffer;
  /** A file name for protocols that upload it as a file part. */
  filename: string;
}

/**
 * One video task as the gateway submits it, protocol-neutral: built by the model family's rules
 * (src/tasks/video-model-family.ts) from the client's request, translated to the wire by a capability.
 */
export interface VideoSubmission {
  /** The model as the client named it (the attempt carries the upstream name after model_mapping). */
  model: string;
  prompt: string;
  /** The requested length in seconds, validated by the family: the reservation holds this many seconds. */
  seconds: number;
  /** `WIDTHxHEIGHT` when the family has a frame size (vid-a-2: 720x1280 or 1280x720). */
  size?: string;
  images: VideoReferenceImage[];
  /** The client's request body as validated (every field), for the family fields a capability forwards. */
  body: Record<string, unknown>;
  /** Upper estimate of the output tokens, for models the provider bills per 1M output tokens (reserved with seconds). */
  estimatedCompletionTokens?: number;
  /**
   * Family fields kept with the task (in its stored request body) for later polls and downloads: what an upstream
   * answer does not repeat (vid-b's seconds per sample) and the client's callback address.
   */
  keep?: Record<string, unknown>;
}

/**
 * What every upstream call of a capability gets: the channel attempt (channel, key, upstream model), the headers
 * that carry the channel key as the adapter does (plus body type and accept), and an abort.
 */
export interface VideoCallInput {
  attempt: ChannelAttempt;
  upstreamHeaders(options?: UpstreamHeaderOptions): Record<string, string>;
  signal: ClientGoneSignal;
  /** Polls and downloads: the task's stored request body (the submission's `keep` fields among it). */
  stored?: Record<string, unknown>;
  /** Downloads: the SSRF-checked GET for hops the upstream redirects to (ProviderServices.openDownload). */
  openDownload?: OpenCheckedDownload;
}

/** A task's state as one poll saw it, normalized. */
export interface VideoTaskSnapshot {
  status: TaskStatus;
  /** The documented upstream vocabulary, shown as metadata.output.task_status. */
  upstreamStatus: UpstreamTaskStatus;
  /** 0 to 100, when the upstream says. */
  progress?: number;
  /** Billable seconds the upstream reports (required to bill a completed task; absent → the requested seconds). */
  seconds?: number;
  /** Output tokens the upstream reports, for models priced per 1M output tokens. */
  completionTokens?: number;
  /** The (temporary) result URL of a completed task, when the protocol gives one. */
  resultUrl?: string;
  /** Why a failed task failed. */
  error?: { code: string; message: string };
  /** Shown as metadata.usage: output resolution (e.g. 720) and number of videos. */
  usage?: { resolution?: number; videoCount?: number };
  /** Shown in metadata.output: upstream times (as the upstream writes them) and durations. */
  output?: {
    submitTime?: string;
    scheduledTime?: string;
    endTime?: string;
    inputVideoDuration?: number;
    outputVideoDuration?: number;
  };
  /** Unix seconds the upstream gives for the end, if any (else the gateway's own time). */
  completedAt?: number;
}

export interface SubmittedVideoTask {
  /** The upstream's task id: stored privately, never shown to a client. */
  upstreamTaskId: string;
  snapshot: VideoTaskSnapshot;
}

/** The finished video, streamed through the gateway (never a redirect to an upstream URL that may carry a key). */
export interface VideoContent {
  contentType: string;
  /** Bytes, when the upstream said. */
  contentLength?: number;
  body: Readable;
}

/**
 * The asynchronous video capability of one upstream protocol (an adapter's `videoTasks`). Every method throws
 * UpstreamFailure for an upstream that refused or failed (retryable for transport errors, 408, 429 and 5xx), and
 * InvalidRequestError for a submission the protocol cannot express.
 */
export interface VideoTaskCapability {
  /** Sends a new task upstream. */
  submit(submission: VideoSubmission, call: VideoCallInput): Promise<SubmittedVideoTask>;
  /**
   * Reads the task's state. A task the upstream no longer knows (404/410) is returned as a snapshot with status
   * `failed`, upstreamStatus `UNKNOWN` and error code `upstream_task_not_found`, not thrown: it is terminal.
   * A 429 or 5xx is thrown (the lifecycle leaves the task as it is and backs off).
   */
  poll(upstreamTaskId: string, call: VideoCallInput): Promise<VideoTaskSnapshot>;
  /** Streams the finished video (protocols that serve the bytes themselves; else absent). */
  fetchContent?(upstreamTaskId: string, call: VideoCallInput): Promise<VideoContent>;
  /** A new task that changes a finished one (protocols that have remix; else absent). */
  remix?(sourceUpstreamTaskId: string, submission: VideoSubmission, call: VideoCallInput): Promise<SubmittedVideoTask>;
}
