import type { GatewayContext } from "../gateway-context.js";
import {
  addMonths,
  createUsageLogPartitions,
  isLockTimeout,
  monthStartOf,
} from "../store/usage-logs/usage-log-partitions.js";

export interface UsageLogPartitioning {
  /** Makes the months due now that are missing (at start, then on the timer); returns the partitions it created. */
  runOnce(): Promise<string[]>;
  /** Stops the timer and waits for a run under way. */
  stop(): Promise<void>;
}

/** Months made ahead of the current one: a month's partition exists long before its first row. */
export const USAGE_LOG_MONTHS_AHEAD = 3;
// Creating a month waits this long at most for a lock (the default partition's, held by a read of the whole log).
const CREATE_LOCK_TIMEOUT_MS = 500;

/**
 * PostgreSQL: keeps a partition of the usage log ready for the current month and the next three, at start and then
 * every `intervalMs` (a day), so rows land in their month and retention can drop whole months. Instances starting
 * together do not conflict (one makes each month; the others find it). A run that cannot make a month (a lock not
 * granted in time) is logged and left to the next run: until then that month's rows go to the default partition,
 * and the partition made later takes them over. SQLite: nothing to do.
 */
export function startUsageLogPartitioning(
  context: Pick<GatewayContext, "now" | "database" | "logger">,
  options: { intervalMs: number },
): UsageLogPartitioning {
  if (context.database.dialect !== "postgres") return { runOnce: async () => [], stop: async () => undefined };
  let running: Promise<unknown> = Promise.resolve();

  const run = async () => {
    const current = monthStartOf(context.now());
    const months = Array.from({ length: USAGE_LOG_MONTHS_AHEAD + 1 }, (_, offset) => addMonths(current, offset));
    const created = await createUsageLogPartitions(context.database.db, months, {
      lockTimeoutMs: CREATE_LOCK_TIMEOUT_MS,
    });
    if (created.length > 0) context.logger.info({ partitions: created }, "created usage log partitions ahead");
    return created;
  };

  const runOnce = () => {
    const result = running.then(run);
    running = result.catch((error: unknown) =>
      isLockTimeout(error)
        ? context.logger.warn("usage log partitions not created: a lock was not granted in time; retried later")
        : context.logger.error({ err: error }, "creating usage log partitions failed"),
    );
    return result;
  };

  const timer = setInterval(() => void runOnce().catch(() => undefined), options.intervalMs);
  timer.unref();
  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
