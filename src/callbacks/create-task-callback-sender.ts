import type { GatewayContext } from "../gateway-context.js";
import { insertCallbackDelivery } from "../store/callback-deliveries/insert-callback-delivery.js";
import { armTaskCallback } from "../store/task-callbacks/arm-task-callback.js";
import { claimDueTaskCallbacks } from "../store/task-callbacks/claim-due-task-callbacks.js";
import { claimTaskCallback } from "../store/task-callbacks/claim-task-callback.js";
import { saveTaskCallbackProgress } from "../store/task-callbacks/save-task-callback-progress.js";
import type { TaskCallbackState, TaskRecord } from "../store/tasks/task-record.js";
import { findWebhookSecret } from "../store/webhook-secrets/find-webhook-secret.js";
import { renderVideoTaskDetail } from "../tasks/render/render-video-task.js";
import { computeCallbackRetryDelays } from "./compute-callback-retry-delays.js";
import type { CallbackDeliverer } from "./create-callback-deliverer.js";

export interface TaskCallbackSenderOptions {
  /** Tries in all, the first included (`tasks.callback_tries`). */
  tries: number;
  /** Wait before the first retry (`tasks.callback_backoff_ms`), doubled before each next one. */
  backoffMs: number;
  /** How long a claim keeps other senders off a callback while one try runs (longer than a try's budget). */
  leaseMs: number;
  /** How often pending callbacks left by stopped processes (or other instances) are looked for. */
  sweepIntervalMs: number;
  /** Epoch milliseconds (tests may move it). */
  clockMs?: () => number;
}

export interface TaskCallbackSender {
  /**
   * Starts delivering a finished task's callback, if it has one that is pending or not decided yet; never throws,
   * never waits for the receiver. Safe to call more than once for a task: only the claim's winner tries.
   */
  send(task: TaskRecord): void;
  /** Claims the pending callbacks that are due and starts them; resolves with how many it started. */
  resumeDue(): Promise<number>;
  /** Sweeps with resumeDue every `sweepIntervalMs` until stop. */
  startSweeping(): void;
  /** Stops the sweep and the scheduled retries, and waits for the tries under way (close the deliverer first). */
  stop(): Promise<void>;
}

/**
 * Task callbacks, durable across restarts and instances. The task row holds where its callback stands
 * (`callback_state`, `callback_attempts`, `callback_next_at`): the terminal compare-and-swap marks it pending, and
 * every try is one claim (a compare-and-swap pushing `callback_next_at` out by a lease), one POST, one delivery row,
 * and one write of the outcome (delivered, exhausted, or pending with the next due time from the doubling backoff).
 * The retry is then scheduled in this process; if it stops, whichever instance sweeps next takes the callback up at
 * its due time with the count where it was. Delivery is at least once: a process that dies between the POST and the
 * write leaves a try the next one repeats.
 *
 * A user without a signing secret gets no callback, and the task shows why (one delivery row).
 */
export function createTaskCallbackSender(
  context: GatewayContext,
  deliverer: CallbackDeliverer,
  options: TaskCallbackSenderOptions,
): TaskCallbackSender {
  return new DurableTaskCallbackSender(context, deliverer, options);
}

/**
 * The TaskCallbackSender over the task rows: the public methods are the sender's; the private ones are the steps of
 * one callback (start a task's callback, claim it, try it once and write the outcome, schedule the next try).
 */
class DurableTaskCallbackSender implements TaskCallbackSender {
  private readonly context: GatewayContext;
  private readonly deliverer: CallbackDeliverer;
  private readonly options: TaskCallbackSenderOptions;
  private readonly db: GatewayContext["database"]["db"];
  private readonly dialect: GatewayContext["database"]["dialect"];
  /** Epoch milliseconds (tests may move it). */
  private readonly clockMs: () => number;
  /** The wait before each retry, the first retry's first. */
  private readonly delays: readonly number[];
  /** The work under way (tries, sweeps), each guarded so it never rejects: stop waits for all of it. */
  private readonly pending: Set<Promise<unknown>>;
  /** The retries scheduled in this process. */
  private readonly timers: Set<NodeJS.Timeout>;
  private sweeper: NodeJS.Timeout | undefined;
  private stopped: boolean;

  constructor(context: GatewayContext, deliverer: CallbackDeliverer, options: TaskCallbackSenderOptions) {
    this.context = context;
    this.deliverer = deliverer;
    this.options = options;
    this.db = context.database.db;
    this.dialect = context.database.dialect;
    this.clockMs = options.clockMs ?? Date.now;
    this.delays = computeCallbackRetryDelays(options.backoffMs, options.tries);
    this.pending = new Set();
    this.timers = new Set();
    this.sweeper = undefined;
    this.stopped = false;
  }

  send(task: TaskRecord): void {
    if (this.stopped) return;
    if (task.callbackState === null && readCallbackUrl(task) === undefined) return;
    this.track(this.startTask(task), task.id);
  }

  async resumeDue(): Promise<number> {
    if (this.stopped) return 0;
    const claimed = await claimDueTaskCallbacks(this.db, this.dialect, {
      nowMs: this.clockMs(),
      leaseMs: this.options.leaseMs,
      limit: 100,
    });
    for (const task of claimed) this.track(this.tryClaimed(task), task.id);
    return claimed.length;
  }

  startSweeping(): void {
    if (this.sweeper !== undefined || this.stopped) return;
    let sweeping = false;
    this.sweeper = setInterval(() => {
      if (sweeping) return;
      sweeping = true;
      const sweep = this.resumeDue().finally(() => {
        sweeping = false;
      });
      this.track(sweep, undefined);
    }, this.options.sweepIntervalMs);
    this.sweeper.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    // Tries under way end at once once the deliverer is closed; their outcome (or the given-back claim) is written.
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private async startTask(task: TaskRecord): Promise<void> {
    if (task.callbackState === null) {
      if (readCallbackUrl(task) === undefined) return;
      // Finished without being marked (the crash-path sweep's tasks): arm it once, then claim like any other.
      await armTaskCallback(this.db, task.id);
    } else if (task.callbackState !== "pending") return;
    await this.claimAndTry(task.id);
  }

  private async claimAndTry(taskId: string): Promise<void> {
    const claimed = await claimTaskCallback(this.db, {
      taskId,
      nowMs: this.clockMs(),
      leaseMs: this.options.leaseMs,
    });
    if (claimed !== null) await this.tryClaimed(claimed);
  }

  /** One try of a claimed callback, then its outcome written and the next try scheduled. */
  private async tryClaimed(task: TaskRecord): Promise<void> {
    const { context, db, options } = this;
    const url = readCallbackUrl(task);
    const attempt = task.callbackAttempts + 1;
    if (url === undefined) {
      await this.finishTry(task, task.callbackAttempts, "exhausted", 0);
      return;
    }
    const stored = await findWebhookSecret(db, task.userId);
    if (stored === undefined) {
      await insertCallbackDelivery(db, {
        taskId: task.id,
        attempt,
        statusCode: null,
        errorMessage: "not sent: the user has no signing secret (create one with POST /api/user/self/webhook-secret)",
        succeeded: false,
        createdTime: context.now(),
      });
      await this.finishTry(task, attempt, "exhausted", 0);
      return;
    }
    const outcome = await this.deliverer.tryOnce({
      taskId: task.id,
      url,
      body: JSON.stringify(renderVideoTaskDetail(task)),
      secret: context.keyCipher.decrypt(stored),
    });
    if (outcome.aborted) {
      // Shutting down mid-try: give the claim back uncounted, so the next process tries at once.
      await this.finishTry(task, task.callbackAttempts, "pending", this.clockMs());
      return;
    }
    await insertCallbackDelivery(db, {
      taskId: task.id,
      attempt,
      statusCode: outcome.statusCode,
      errorMessage: outcome.errorMessage,
      succeeded: outcome.succeeded,
      createdTime: context.now(),
    }).catch((error: unknown) =>
      context.logger.warn({ taskId: task.id, err: (error as Error).message }, "a task callback try was not recorded"),
    );
    if (outcome.succeeded) {
      await this.finishTry(task, attempt, "delivered", 0);
      return;
    }
    if (outcome.final || attempt >= options.tries) {
      await this.finishTry(task, attempt, "exhausted", 0);
      context.logger.warn({ taskId: task.id, tries: attempt }, "task callback given up");
      return;
    }
    const delay = this.delays[attempt - 1] ?? options.backoffMs;
    if (!(await this.finishTry(task, attempt, "pending", this.clockMs() + delay))) return;
    this.schedule(task.id, delay);
  }

  /** Writes a try's outcome unless another sender counted a try since the claim; false when it did not apply. */
  private async finishTry(
    task: TaskRecord,
    attempts: number,
    state: TaskCallbackState,
    nextAt: number,
  ): Promise<boolean> {
    return saveTaskCallbackProgress(this.db, {
      taskId: task.id,
      fromAttempts: task.callbackAttempts,
      attempts,
      state,
      nextAt,
    });
  }

  private schedule(taskId: string, delayMs: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.stopped) return;
      this.track(this.claimAndTry(taskId), taskId);
    }, delayMs);
    this.timers.add(timer);
  }

  private track(work: Promise<unknown>, taskId: string | undefined): void {
    const guarded = work.catch((error: unknown) =>
      this.context.logger.warn({ taskId, err: (error as Error).message }, "task callback could not be sent"),
    );
    this.pending.add(guarded);
    void guarded.finally(() => this.pending.delete(guarded));
  }
}

function readCallbackUrl(task: TaskRecord): string | undefined {
  const request = task.requestBody as { callback_url?: unknown } | null;
  return typeof request?.callback_url === "string" ? request.callback_url : undefined;
}
