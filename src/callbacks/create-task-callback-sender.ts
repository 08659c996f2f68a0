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
  const { db, dialect } = context.database;
  const clockMs = options.clockMs ?? Date.now;
  const delays = computeCallbackRetryDelays(options.backoffMs, options.tries);
  const pending = new Set<Promise<unknown>>();
  const timers = new Set<NodeJS.Timeout>();
  let sweeper: NodeJS.Timeout | undefined;
  let stopped = false;

  function track(work: Promise<unknown>, taskId: string | undefined): void {
    const guarded = work.catch((error: unknown) =>
      context.logger.warn({ taskId, err: (error as Error).message }, "task callback could not be sent"),
    );
    pending.add(guarded);
    void guarded.finally(() => pending.delete(guarded));
  }

  async function finishTry(task: TaskRecord, attempts: number, state: TaskCallbackState, nextAt: number) {
    return saveTaskCallbackProgress(db, {
      taskId: task.id,
      fromAttempts: task.callbackAttempts,
      attempts,
      state,
      nextAt,
    });
  }

  /** One try of a claimed callback, then its outcome written and the next try scheduled. */
  async function tryClaimed(task: TaskRecord): Promise<void> {
    const url = readCallbackUrl(task);
    const attempt = task.callbackAttempts + 1;
    if (url === undefined) {
      await finishTry(task, task.callbackAttempts, "exhausted", 0);
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
      await finishTry(task, attempt, "exhausted", 0);
      return;
    }
    const outcome = await deliverer.tryOnce({
      taskId: task.id,
      url,
      body: JSON.stringify(renderVideoTaskDetail(task)),
      secret: context.keyCipher.decrypt(stored),
    });
    if (outcome.aborted) {
      // Shutting down mid-try: give the claim back uncounted, so the next process tries at once.
      await finishTry(task, task.callbackAttempts, "pending", clockMs());
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
      await finishTry(task, attempt, "delivered", 0);
      return;
    }
    if (outcome.final || attempt >= options.tries) {
      await finishTry(task, attempt, "exhausted", 0);
      context.logger.warn({ taskId: task.id, tries: attempt }, "task callback given up");
      return;
    }
    const delay = delays[attempt - 1] ?? options.backoffMs;
    if (!(await finishTry(task, attempt, "pending", clockMs() + delay))) return;
    schedule(task.id, delay);
  }

  function schedule(taskId: string, delayMs: number): void {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (stopped) return;
      track(claimAndTry(taskId), taskId);
    }, delayMs);
    timers.add(timer);
  }

  async function claimAndTry(taskId: string): Promise<void> {
    const claimed = await claimTaskCallback(db, { taskId, nowMs: clockMs(), leaseMs: options.leaseMs });
    if (claimed !== null) await tryClaimed(claimed);
  }

  async function startTask(task: TaskRecord): Promise<void> {
    if (task.callbackState === null) {
      if (readCallbackUrl(task) === undefined) return;
      // Finished without being marked (the crash-path sweep's tasks): arm it once, then claim like any other.
      await armTaskCallback(db, task.id);
    } else if (task.callbackState !== "pending") return;
    await claimAndTry(task.id);
  }

  async function resumeDue(): Promise<number> {
    if (stopped) return 0;
    const claimed = await claimDueTaskCallbacks(db, dialect, {
      nowMs: clockMs(),
      leaseMs: options.leaseMs,
      limit: 100,
    });
    for (const task of claimed) track(tryClaimed(task), task.id);
    return claimed.length;
  }

  return {
    send(task) {
      if (stopped) return;
      if (task.callbackState === null && readCallbackUrl(task) === undefined) return;
      track(startTask(task), task.id);
    },

    resumeDue,

    startSweeping() {
      if (sweeper !== undefined || stopped) return;
      let sweeping = false;
      sweeper = setInterval(() => {
        if (sweeping) return;
        sweeping = true;
        const sweep = resumeDue().finally(() => {
          sweeping = false;
        });
        track(sweep, undefined);
      }, options.sweepIntervalMs);
      sweeper.unref();
    },

    async stop() {
      stopped = true;
      if (sweeper !== undefined) clearInterval(sweeper);
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      // Tries under way end at once once the deliverer is closed; their outcome (or the given-back claim) is written.
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

function readCallbackUrl(task: TaskRecord): string | undefined {
  const request = task.requestBody as { callback_url?: unknown } | null;
  return typeof request?.callback_url === "string" ? request.callback_url : undefined;
}
