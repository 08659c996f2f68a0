import type { Logger } from "../logging/logger.js";
import type { GatewayDatabase } from "../store/gateway-database.js";
import { claimDueTasks } from "../store/tasks/claim-due-tasks.js";
import type { VideoTaskService } from "./video-task-service.js";

export interface TaskPoller {
  /** Stops claiming, aborts polls in flight and waits for them to let go of their tasks. */
  stop(): Promise<void>;
}

export interface TaskPollerOptions {
  pollIntervalMs: number;
  maxConcurrentPolls: number;
  /** How long a claim keeps other pollers off (see claimDueTasks). */
  leaseMs: number;
  clockMs?: () => number;
}

/**
 * The background poller: claims due unfinished tasks in batches (as many as free poll slots) and polls them
 * concurrently, at most `maxConcurrentPolls` at a time. While a backlog lasts (the last claim filled every free
 * slot) it claims again as soon as a quarter of the slots are free, so the backlog drains at close to full
 * concurrency with one claim per several polls instead of one per poll (a claim is a write with its own index
 * walk); otherwise it wakes every half interval. Claims go through the database, so several instances share the
 * work without polling a task twice, and a restart resumes from the table.
 */
export function startTaskPoller(
  database: Pick<GatewayDatabase, "db" | "dialect" | "sqliteConnection" | "sqliteCommitWindow">,
  service: Pick<VideoTaskService, "pollClaimed" | "abortPolls">,
  logger: Logger,
  options: TaskPollerOptions,
): TaskPoller {
  const clockMs = options.clockMs ?? Date.now;
  const wakeEveryMs = Math.max(10, Math.floor(options.pollIntervalMs / 2));
  const inFlight = new Set<Promise<unknown>>();
  // A finished poll claims again only once this many slots are free (the timer's wake claims whatever is free).
  const claimBatch = Math.max(1, Math.floor(options.maxConcurrentPolls / 4));
  let stopped = false;
  let claiming = false;
  let claimAgain = false;
  let timer: NodeJS.Timeout | undefined;

  const schedule = (delayMs: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void claim(), delayMs);
    timer.unref();
  };

  async function claim(afterPoll = false): Promise<void> {
    if (stopped) return;
    if (afterPoll && options.maxConcurrentPolls - inFlight.size < claimBatch) return;
    if (claiming) {
      claimAgain = true;
      return;
    }
    claiming = true;
    // Only the timer's wake claims for fewer free slots than a batch.
    let minimumFree = afterPoll ? claimBatch : 1;
    try {
      do {
        claimAgain = false;
        const free = options.maxConcurrentPolls - inFlight.size;
        if (free < minimumFree) break;
        minimumFree = claimBatch;
        const tasks = await claimDueTasks(database, {
          nowMs: clockMs(),
          leaseMs: options.leaseMs,
          limit: free,
        });
        for (const task of tasks) {
          const poll: Promise<unknown> = service
            .pollClaimed(task)
            .catch((error: unknown) => logger.error({ err: error, taskId: task.id }, "video task poll failed"))
            .finally(() => {
              inFlight.delete(poll);
              void claim(true);
            });
          inFlight.add(poll);
        }
        if (tasks.length === free) claimAgain = true;
      } while (claimAgain && !stopped);
    } catch (error) {
      logger.error({ err: error }, "claiming video tasks failed");
    } finally {
      claiming = false;
      schedule(wakeEveryMs);
    }
  }

  schedule(0);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      service.abortPolls();
      await Promise.allSettled([...inFlight]);
    },
  };
}
