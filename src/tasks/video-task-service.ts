import type { Request, Response } from "express";
import type { CallbackDeliveryRecord } from "../store/callback-deliveries/callback-delivery-record.js";
import type { TaskRecord } from "../store/tasks/task-record.js";
import type { UploadedVideoFile } from "./video-model-family.js";
import type { VideoContent } from "../providers/contract/video-task-capability.js";

export interface VideoSubmitInput {
  /** The validated body (multipart text fields as strings). */
  body: Record<string, unknown>;
  files: readonly UploadedVideoFile[];
  traceId: string | undefined;
  idempotencyKey: string | undefined;
  /** Builds the answer from the stored task (each endpoint has its own shape). */
  render(task: TaskRecord): unknown;
}

/**
 * The asynchronous video task lifecycle: submit (reserve, call the upstream, store the task and hand it
 * the reservation), refresh (poll, map, and finish with a compare-and-swap whose winner alone settles or refunds),
 * and the reads the endpoints need. The background poller (start-task-poller.ts) drives `pollClaimed`.
 */
export interface VideoTaskService {
  /** Answers the submission itself (JSON), through the relay. */
  submit(request: Request, response: Response, input: VideoSubmitInput): Promise<void>;
  /**
   * The user's task (NotFoundError for anyone else's or an unknown id). An unfinished task whose last poll is older
   * than the poll interval is refreshed first, when `refresh` is set.
   */
  findForUser(taskId: string, userId: number, options: { refresh: boolean }): Promise<TaskRecord>;
  /** Polls a task this caller has claimed and applies what the upstream said; returns the task afterwards. */
  pollClaimed(task: TaskRecord): Promise<TaskRecord>;
  /** The finished video's bytes from the upstream (InvalidRequestError / ConflictError when there are none yet). */
  openContent(task: TaskRecord): Promise<VideoContent>;
  /** Settles finished tasks whose winner stopped before settling (their cost is on the row). */
  settleInterrupted(): Promise<number>;
  /** The callback delivery attempts of a task that has a callback; undefined for one without. */
  listCallbackDeliveries(task: TaskRecord): Promise<CallbackDeliveryRecord[] | undefined>;
  /** Aborts polls in flight (shutdown). */
  abortPolls(): void;
}
