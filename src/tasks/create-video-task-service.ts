import type { Request, Response } from "express";
import type { Reservation, UsageLogEntry } from "../billing/billing-service.js";
import type { MeteredUsage } from "../billing/metered-usage.js";
import { isUniqueViolation } from "../channels/is-unique-violation.js";
import { ConflictError, InvalidRequestError, ModelNotFoundError, NotFoundError } from "../errors/gateway-error.js";
import type { GatewayContext } from "../gateway-context.js";
import { ClientGoneSignal } from "../http/client-gone-signal.js";
import { runRelay } from "../relay/run-relay.js";
import { UpstreamFailure } from "../upstream/upstream-failure.js";
import { listCallbackDeliveries } from "../store/callback-deliveries/list-callback-deliveries.js";
import { claimTaskForRefresh } from "../store/tasks/claim-task-for-refresh.js";
import { findFinishedTasksWithOpenReservations } from "../store/tasks/find-finished-tasks-with-open-reservations.js";
import { findTaskById } from "../store/tasks/find-task-by-id.js";
import { findTaskByIdempotencyKey } from "../store/tasks/find-task-by-idempotency-key.js";
import { findTaskForUser } from "../store/tasks/find-task-for-user.js";
import { insertTask } from "../store/tasks/insert-task.js";
import type { TaskRecord } from "../store/tasks/task-record.js";
import { updateClaimedTask } from "../store/tasks/update-claimed-task.js";
import { updateTask } from "../store/tasks/update-task.js";
import { getAuthenticatedToken } from "../users/authenticated-request.js";
import { buildChannelAttemptForTask } from "./build-channel-attempt-for-task.js";
import { buildVideoCallInput } from "./build-video-call-input.js";
import { computePollDelay } from "./compute-poll-delay.js";
import { createTaskId } from "./create-task-id.js";
import { findVideoModelFamily } from "./find-video-model-family.js";
import { findVideoTaskCapability } from "./find-video-task-capability.js";
import { hashVideoRequest } from "./hash-video-request.js";
import type { RelayAttemptInput } from "../providers/contract/relay-attempt-input.js";
import type {
  SubmittedVideoTask,
  VideoContent,
  VideoSubmission,
  VideoTaskSnapshot,
} from "../providers/contract/video-task-capability.js";
import type { CallbackDeliveryRecord } from "../store/callback-deliveries/callback-delivery-record.js";
import type { TokenRecord } from "../store/tokens/token-record.js";
import type { VideoModelFamily, VideoRequestInput } from "./video-model-family.js";
import type { VideoSubmitInput, VideoTaskService } from "./video-task-service.js";
import { activeTracing } from "../tracing/tracing-hooks.js";
import { storableText } from "../store/storable-text.js";

const unfinished = ["queued", "in_progress"] as const;
const idempotencyWindowSeconds = 24 * 60 * 60;
const zeroUsage: MeteredUsage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 };

export interface VideoTaskServiceOptions {
  /** How long a claim keeps other pollers off a task (see claimDueTasks). */
  leaseMs: number;
  /** Epoch milliseconds for poll scheduling (tests may move it). */
  clockMs?: () => number;
  /**
   * Told after settlement by the winner of the terminal transition, and by the start sweep for a task whose winner
   * stopped before settling (callbacks; the receiver claims, so a second call for a task is harmless).
   */
  onFinished?(task: TaskRecord): void;
}

/**
 * Money rules for tasks: the submission reserves the requested seconds at `per_second` × group ratio through the
 * relay, which hands the reservation to the task row instead of settling it. Whoever wins the terminal
 * compare-and-swap (`… where status in (queued, in_progress)`) writes the final cost on the row and settles:
 * the upstream's seconds × price when completed, nothing (a whole refund) when failed, timed out or gone. Losers
 * do nothing, so a task is settled once whatever the number of pollers, instances, restarts or client queries;
 * a winner that stopped before settling is finished by `settleInterrupted` at the next start.
 */
export function createVideoTaskService(context: GatewayContext, options: VideoTaskServiceOptions): VideoTaskService {
  return new VideoTaskLifecycle(context, options);
}

/** What a submission knows when the relay hands it the accepted upstream task to store. */
interface AcceptedSubmission {
  token: TokenRecord;
  model: string;
  input: VideoSubmitInput;
  requestHash: string | null;
  submission: VideoSubmission;
  remixSource: TaskRecord | undefined;
}

/**
 * The VideoTaskService over the tasks table: the public methods are the service's, the private ones the steps of a
 * submission (an earlier answer for the same Idempotency-Key, the remix source, storing the accepted task) and of a
 * poll (ask the upstream, back off, finish, settle).
 */
class VideoTaskLifecycle implements VideoTaskService {
  private readonly context: GatewayContext;
  private readonly options: VideoTaskServiceOptions;
  private readonly db: GatewayContext["database"]["db"];
  private readonly pollIntervalMs: number;
  private readonly timeoutMinutes: number;
  /** Epoch milliseconds for poll scheduling (tests may move it). */
  private readonly clockMs: () => number;
  private readonly leaseMs: number;
  private readonly pollsInFlight: Set<ClientGoneSignal>;

  constructor(context: GatewayContext, options: VideoTaskServiceOptions) {
    this.context = context;
    this.options = options;
    this.db = context.database.db;
    this.pollIntervalMs = context.config.tasks.pollIntervalMs;
    this.timeoutMinutes = context.config.tasks.timeoutMinutes;
    this.clockMs = options.clockMs ?? Date.now;
    this.leaseMs = options.leaseMs;
    this.pollsInFlight = new Set();
  }

  async submit(request: Request, response: Response, input: VideoSubmitInput): Promise<void> {
    const token = getAuthenticatedToken(response);
    const model = String(input.body.model ?? "");
    const family = findVideoModelFamily(model);
    // A model no video family knows has no channel to run it as video, as any model without a channel.
    if (!family) throw new ModelNotFoundError(model);
    const videoRequest = { body: input.body, files: input.files };
    const requestHash = input.idempotencyKey === undefined ? null : hashVideoRequest(input.body, input.files);
    const earlier = await this.findEarlierSubmission(token, input.idempotencyKey, requestHash);
    if (earlier) {
      response.json(input.render(earlier));
      return;
    }
    const remixSource = await this.findRemixSource(family, videoRequest, token.userId);
    const submission = await family.prepare(videoRequest, { fetchImage: this.context.providers.fetchImage });
    const accepted: AcceptedSubmission = { token, model, input, requestHash, submission, remixSource };
    await runRelay(this.context, request, response, {
      capability: "videoSubmission",
      input: {
        submission,
        ...(remixSource?.upstreamTaskId ? { remixOfUpstreamTaskId: remixSource.upstreamTaskId } : {}),
        store: (submitted, attempt) => this.storeAcceptedTask(accepted, submitted, attempt),
      },
      model,
      isStream: false,
      promptTokenEstimate: 0,
      maxOutputTokens: submission.estimatedCompletionTokens ?? 0,
      reservedUsage: { durationSeconds: submission.seconds },
      acceptsAttempt: (attempt) => remixSource === undefined || attempt.channel.id === remixSource.channelId,
      handsOverReservation: true,
    });
  }

  async findForUser(taskId: string, userId: number, { refresh }: { refresh: boolean }): Promise<TaskRecord> {
    const task = await findTaskForUser(this.db, taskId, userId);
    if (!task) throw new NotFoundError(`No video task ${taskId}.`, { param: "task_id" });
    if (!refresh || (task.status !== "queued" && task.status !== "in_progress") || task.nextPollAt > this.clockMs())
      return task;
    const claimed = await claimTaskForRefresh(this.db, {
      taskId,
      userId,
      nowMs: this.clockMs(),
      leaseMs: this.leaseMs,
    });
    return claimed ? this.pollClaimed(claimed) : ((await findTaskForUser(this.db, taskId, userId)) ?? task);
  }

  async pollClaimed(task: TaskRecord): Promise<TaskRecord> {
    const { context, timeoutMinutes } = this;
    if (task.createdTime + timeoutMinutes * 60 <= context.now())
      return this.finish(task, {
        status: "failed",
        upstreamStatus: "UNKNOWN",
        error: {
          code: "task_timeout",
          message: `The task did not finish within ${timeoutMinutes} minutes; its quota was refunded.`,
        },
      });
    const attempt = buildChannelAttemptForTask(context.channelRouter, task);
    const capability = attempt && findVideoTaskCapability(context.findAdapter, attempt.channel);
    if (!attempt || !capability || task.upstreamTaskId === null) {
      context.logger.warn({ taskId: task.id, channelId: task.channelId }, "video task's channel is unavailable");
      return this.backOff(task, undefined);
    }
    const signal = new ClientGoneSignal();
    this.pollsInFlight.add(signal);
    let snapshot: VideoTaskSnapshot;
    try {
      const upstreamTaskId = task.upstreamTaskId;
      const poll = () =>
        capability.poll(upstreamTaskId, {
          ...buildVideoCallInput(context.findAdapter, attempt, signal),
          stored: storedRequest(task),
        });
      const tracing = activeTracing();
      snapshot = await (tracing === undefined
        ? poll()
        : tracing.traceTaskPoll({ taskId: task.id, channelId: attempt.channel.id, model: task.model }, poll));
    } catch (error) {
      // Shutting down: give the claim back, so the next process (or instance) polls it without waiting out the lease.
      if (signal.aborted)
        return (
          (await updateClaimedTask(context.database, task, {
            nextPollAt: this.clockMs(),
            updatedTime: context.now(),
          })) ?? task
        );
      const retryAfter = error instanceof UpstreamFailure ? error.retryAfterSeconds : undefined;
      context.logger.warn({ taskId: task.id, err: (error as Error).message }, "video task poll failed; backing off");
      return this.backOff(task, retryAfter);
    } finally {
      this.pollsInFlight.delete(signal);
    }
    if (snapshot.status === "completed" || snapshot.status === "failed") return this.finish(task, snapshot);
    const updated = await updateClaimedTask(
      context.database,
      task,
      {
        status: snapshot.status,
        upstreamStatus: snapshot.upstreamStatus,
        progress: snapshot.progress ?? task.progress,
        responseBody: snapshot,
        pollFailures: 0,
        nextPollAt: this.clockMs() + this.pollIntervalMs,
        updatedTime: context.now(),
      },
      { onlyFromStatuses: unfinished },
    );
    return updated ?? (await findTaskById(this.db, task.id)) ?? task;
  }

  async openContent(task: TaskRecord): Promise<VideoContent> {
    const family = findVideoModelFamily(task.model);
    if (!family?.servesContent)
      throw new InvalidRequestError(`Download is only available for vid-a-2 tasks.`, { param: "id" });
    if (task.status !== "completed")
      throw new ConflictError(`Task ${task.id} is ${task.status}; download it once it is completed.`, {
        code: "task_not_completed",
      });
    const attempt = buildChannelAttemptForTask(this.context.channelRouter, task);
    const capability = attempt && findVideoTaskCapability(this.context.findAdapter, attempt.channel);
    if (!attempt || !capability?.fetchContent || task.upstreamTaskId === null)
      throw new NotFoundError(`The video of task ${task.id} is no longer available.`, { code: "video_unavailable" });
    return capability.fetchContent(task.upstreamTaskId, {
      ...buildVideoCallInput(this.context.findAdapter, attempt, new ClientGoneSignal()),
      stored: storedRequest(task),
      openDownload: this.context.providers.openDownload,
    });
  }

  async settleInterrupted(): Promise<number> {
    let settled = 0;
    // Bounded: a settlement that could not apply (a deferred write) must not keep the sweep going round.
    for (let page = 0; page < 50; page += 1) {
      const tasks = await findFinishedTasksWithOpenReservations(this.db, 200);
      for (const task of tasks) {
        await this.settle(task);
        // The winner stopped before it could start the callback; the sender arms and claims it once.
        this.options.onFinished?.(task);
        settled += 1;
      }
      if (tasks.length < 200) break;
    }
    if (settled > 0) this.context.logger.warn({ settled }, "settled video tasks a stopped process had finished");
    return settled;
  }

  async listCallbackDeliveries(task: TaskRecord): Promise<CallbackDeliveryRecord[] | undefined> {
    const stored = storedRequest(task);
    return typeof stored.callback_url === "string" ? listCallbackDeliveries(this.db, task.id) : undefined;
  }

  abortPolls(): void {
    for (const signal of this.pollsInFlight) signal.abort(new Error("gateway shutting down"));
  }

  /**
   * The task an earlier submission with this Idempotency-Key stored, when it is inside the window and was the same
   * request (ConflictError when it was another); an older one frees the key.
   */
  private async findEarlierSubmission(
    token: TokenRecord,
    idempotencyKey: string | undefined,
    requestHash: string | null,
  ): Promise<TaskRecord | undefined> {
    if (idempotencyKey === undefined) return undefined;
    const earlier = await findTaskByIdempotencyKey(this.db, token.userId, idempotencyKey);
    if (earlier && earlier.createdTime > this.context.now() - idempotencyWindowSeconds) {
      if (earlier.requestHash !== requestHash)
        throw new ConflictError("This Idempotency-Key was used with a different request body.", {
          code: "idempotency_key_reused",
        });
      return earlier;
    }
    // Older than the window: the key is free again.
    if (earlier) await updateTask(this.db, earlier.id, { idempotencyKey: null, updatedTime: this.context.now() });
    return undefined;
  }

  /** The user's completed task of the same family a remix names (NotFoundError for any other). */
  private async findRemixSource(
    family: VideoModelFamily,
    videoRequest: VideoRequestInput,
    userId: number,
  ): Promise<TaskRecord | undefined> {
    const remixSourceId = family.readRemixSource?.(videoRequest);
    if (remixSourceId === undefined) return undefined;
    const source = await findTaskForUser(this.db, remixSourceId, userId);
    if (source?.status !== "completed" || !family.matches(source.model) || !source.upstreamTaskId)
      throw new NotFoundError(`No completed video ${remixSourceId} to remix.`, { param: "remix_from_video_id" });
    return source;
  }

  /** The relay's `store`: the task row takes over the attempt's reservation; returns the client's answer. */
  private async storeAcceptedTask(
    accepted: AcceptedSubmission,
    submitted: SubmittedVideoTask,
    attempt: RelayAttemptInput,
  ): Promise<unknown> {
    const { token, model, input, requestHash, submission, remixSource } = accepted;
    const now = this.context.now();
    let task: TaskRecord;
    try {
      task = await insertTask(this.db, {
        id: createTaskId(),
        userId: token.userId,
        tokenId: token.id,
        tokenName: token.name,
        channelId: attempt.attempt.channel.id,
        keyIndex: Math.max(0, attempt.attempt.channel.keys.indexOf(attempt.attempt.upstreamKey)),
        model,
        upstreamModel: attempt.attempt.upstreamModel,
        upstreamTaskId: submitted.upstreamTaskId,
        // A submission is queued until the first poll says otherwise, even if the upstream started at once.
        status: "queued",
        upstreamStatus: "PENDING",
        reservationId: attempt.reservation.requestId,
        reservedQuota: attempt.reservation.reserved,
        unlimitedQuota: attempt.reservation.unlimited,
        billingGroup: attempt.attempt.group,
        traceId: input.traceId ?? null,
        idempotencyKey: input.idempotencyKey ?? null,
        requestHash,
        requestBody: {
          ...submission.keep,
          prompt: submission.prompt,
          seconds: String(submission.seconds),
          ...(submission.size === undefined ? {} : { size: submission.size }),
          ...(remixSource ? { remix_from_video_id: remixSource.id } : {}),
        },
        createdTime: now,
        nextPollAt: this.clockMs() + this.pollIntervalMs,
      });
    } catch (error) {
      // The same key submitted twice at once: the other request stored its task first.
      if (input.idempotencyKey !== undefined && isUniqueViolation(error))
        throw new ConflictError("A request with this Idempotency-Key is already being processed.", {
          code: "idempotency_key_in_use",
        });
      throw error;
    }
    this.context.logger.info(
      {
        requestId: attempt.requestId,
        taskId: task.id,
        traceId: task.traceId,
        channel: attempt.attempt.channel.name,
        model,
      },
      "video task submitted",
    );
    return input.render(task);
  }

  private async backOff(task: TaskRecord, retryAfterSeconds: number | undefined): Promise<TaskRecord> {
    const failures = task.pollFailures + 1;
    const updated = await updateClaimedTask(
      this.context.database,
      task,
      {
        pollFailures: failures,
        nextPollAt: this.clockMs() + computePollDelay(this.pollIntervalMs, failures, retryAfterSeconds),
        updatedTime: this.context.now(),
      },
      { onlyFromStatuses: unfinished },
    );
    return updated ?? (await findTaskById(this.db, task.id)) ?? task;
  }

  private async settle(task: TaskRecord): Promise<void> {
    const reservation = reservationOf(task);
    const cost = task.quota ?? 0;
    const usage: UsageLogEntry = {
      userId: task.userId,
      tokenId: task.tokenId,
      tokenName: task.tokenName,
      model: task.model,
      channelId: task.channelId,
      requestId: task.reservationId ?? task.id,
      isStream: false,
      usage: { ...zeroUsage, durationSeconds: task.billedSeconds ?? 0 },
      quota: cost,
      latencyMs: Math.max(0, ((task.completedTime ?? task.createdTime) - task.createdTime) * 1000),
      status: task.status === "completed" ? "success" : "error",
      group: task.billingGroup,
      ...(task.status === "failed" ? { errorMessage: task.errorMessage ?? "video task failed" } : {}),
    };
    // With a reservation the row commits with the settlement; a task without one only logs.
    if (reservation) await this.context.billing.settle(reservation, cost, usage);
    else this.context.billing.recordUsage(usage);
  }

  /** The terminal transition: only its winner settles. Returns the task as stored afterwards. */
  private async finish(task: TaskRecord, snapshot: VideoTaskSnapshot): Promise<TaskRecord> {
    const now = this.context.now();
    const completed = snapshot.status === "completed";
    const seconds = completed ? (snapshot.seconds ?? Number(requestedSeconds(task))) : null;
    const cost =
      completed && seconds !== null
        ? this.context.billing.priceUsage(task.model, task.billingGroup, {
            ...zeroUsage,
            completionTokens: snapshot.completionTokens ?? 0,
            durationSeconds: seconds,
          })
        : 0;
    const won = await updateClaimedTask(
      this.context.database,
      task,
      {
        status: snapshot.status,
        upstreamStatus: snapshot.upstreamStatus,
        progress: completed ? 100 : (snapshot.progress ?? task.progress),
        resultUrl: snapshot.resultUrl ?? null,
        errorCode: snapshot.error?.code ?? null,
        errorMessage: snapshot.error?.message === undefined ? null : storableText(snapshot.error.message),
        responseBody: snapshot,
        completedTime: now,
        quota: cost,
        billedSeconds: seconds,
        // Marked in the same compare-and-swap, so a callback survives a stop right after it (see the sender).
        ...(typeof storedRequest(task).callback_url === "string"
          ? { callbackState: "pending" as const, callbackNextAt: 0 }
          : {}),
        updatedTime: now,
      },
      { onlyFromStatuses: unfinished },
    );
    if (won === null) return (await findTaskById(this.db, task.id)) ?? task;
    await this.settle(won);
    this.options.onFinished?.(won);
    this.context.logger.info(
      { taskId: won.id, traceId: won.traceId, status: won.status, quota: cost, seconds, code: won.errorCode },
      "video task finished",
    );
    return won;
  }
}

function reservationOf(task: TaskRecord): Reservation | undefined {
  return task.reservationId === null
    ? undefined
    : {
        requestId: task.reservationId,
        tokenId: task.tokenId,
        userId: task.userId,
        reserved: task.reservedQuota,
        unlimited: task.unlimitedQuota,
      };
}

function storedRequest(task: TaskRecord): Record<string, unknown> {
  const body = task.requestBody;
  return body !== null && typeof body === "object" ? (body as Record<string, unknown>) : {};
}

function requestedSeconds(task: TaskRecord): string {
  const body = task.requestBody as { seconds?: unknown } | null;
  return String(body?.seconds ?? 0);
}
