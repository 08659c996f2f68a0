import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import type { GatewayContext } from "../gateway-context.js";
import { deleteSettledReservationsCreatedBefore } from "../store/quota/delete-settled-reservations.js";
import {
  deleteOldestUsageRollupHourBefore,
  deleteUsageLogsCreatedBefore,
} from "../store/usage-logs/delete-expired-usage.js";
import {
  detachUsageLogPartition,
  dropDetachedUsageLogPartition,
  listDetachedUsageLogPartitions,
  listUsageLogPartitions,
} from "../store/usage-logs/usage-log-partitions.js";

export interface UsageRetention {
  /** One pass now (tests, and the timer's work): deletes everything past retention, batch by batch. */
  runOnce(): Promise<{
    deletedRows: number;
    deletedRollups: number;
    deletedReservations: number;
    droppedPartitions: string[];
  }>;
  /** Stops the timer, ends a pass under way after its current batch, and waits for it. */
  stop(): Promise<void>;
}

/**
 * One step of a pass, as the bench times it: a batch of deleted rows (`delete`); a month partition detached from the
 * usage log (`detach`: the only step that takes the usage log's own lock, so its time bounds how long requests could
 * wait on it); a detached month's table dropped (`drop`: locks that table alone).
 */
export interface UsageRetentionStep {
  kind: "delete" | "detach" | "drop";
  rows: number;
  milliseconds: number;
  /**
   * How long the step held its lock: for a batch of deleted rows on SQLite, its statement's own run (the time around
   * it adds waits for the connection and the event loop, holding nothing); for a detach, from its statement (which
   * queues for the usage log's lock) to its commit; else the step's time, an upper bound.
   */
  lockHeldMilliseconds: number;
}

const DAY_SECONDS = 86_400;
// Pages handed back to the file system per step on SQLite: a few milliseconds of work each.
const VACUUM_PAGES_PER_STEP = 500;
// Detaching a month partition waits this long at most for the statements using the log, then tries again later.
const DETACH_LOCK_TIMEOUT_MS = 50;
const DETACH_TRIES = 5;
// Dropping a detached month waits for its own table only, which no request reads: longer is harmless, and a drop
// not made now is found detached and made by the next pass.
const DROP_LOCK_TIMEOUT_MS = 5_000;
// A pause is at least this many times its batch's own time, so the job takes a fifth of the database (on SQLite, of
// its one writer) at most, however slow a batch gets on a loaded machine.
const PAUSE_PER_BATCH_TIME = 4;

/**
 * Keeps the usage log bounded: raw rows older than `logs.retention_days` are deleted (hourly rollups stay, for
 * `logs.rollup_retention_days`), and so are the quota ledger's settled rows of the same age. Deletes go in small
 * batches with a pause between them, each its own short transaction, so a request never waits behind more than one
 * batch (on SQLite the one writer is free between batches; on PostgreSQL a batch locks only the rows it deletes,
 * which no request touches). On SQLite the freed pages are given back with incremental vacuum, a few hundred pages
 * at a time. On PostgreSQL, whose usage log is partitioned by month, a month wholly past retention is first detached
 * and then dropped; the month that straddles the boundary (and the default partition) lose their old rows by the
 * same batched deletes. Any instance may run it: the deletes are idempotent, and a partition another instance
 * dropped first is simply not found.
 */
export function startUsageRetention(
  context: Pick<GatewayContext, "config" | "now" | "database" | "logger">,
  options: { intervalMs: number; firstPassAfterMs: number; onStep?: (step: UsageRetentionStep) => void },
): UsageRetention {
  const { retentionDays, rollupRetentionDays, retentionBatchSize, retentionPauseMs } = context.config.logs;
  const { db } = context.database;
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();

  const deleteInBatches = async (
    deleteBatch: () => Promise<{ rows: number; lockHeldMilliseconds?: number }>,
    full: (deleted: number) => boolean,
  ) => {
    let deleted = 0;
    while (!stopped) {
      const began = performance.now();
      const batch = await deleteBatch();
      const milliseconds = performance.now() - began;
      const lockHeldMilliseconds = batch.lockHeldMilliseconds ?? milliseconds;
      options.onStep?.({ kind: "delete", rows: batch.rows, milliseconds, lockHeldMilliseconds });
      deleted += batch.rows;
      if (!full(batch.rows)) break;
      // A timer counts from the event loop's time of its turn, which work earlier in the turn (on SQLite the batch
      // itself, run synchronously) makes older than now: the remainder is waited out too.
      const resumeAt = performance.now() + Math.max(retentionPauseMs, PAUSE_PER_BATCH_TIME * milliseconds);
      for (let left = resumeAt - performance.now(); left > 0 && !stopped; left = resumeAt - performance.now())
        await sleep(Math.ceil(left));
    }
    return deleted;
  };

  // A partition is dropped only when every row it can hold is past retention; the detach gives up on a busy table
  // after a short wait (requests must not queue behind it) and is tried again a few times, then at the next pass.
  // Months found detached first are what a crash between a detach and its drop left: they are dropped as well.
  const dropPartitionsBefore = async (createdBefore: number) => {
    const dropped: string[] = [];
    for (const detached of await listDetachedUsageLogPartitions(db)) {
      if (stopped || detached.to > createdBefore) continue;
      if (await dropDetached(detached.name)) dropped.push(detached.name);
    }
    for (const partition of await listUsageLogPartitions(db)) {
      if (stopped || partition.to > createdBefore) continue;
      for (let attempt = 1; attempt <= DETACH_TRIES && !stopped; attempt += 1) {
        const began = performance.now();
        const { outcome, lockHeldMilliseconds } = await detachUsageLogPartition(db, partition.name, {
          lockTimeoutMs: DETACH_LOCK_TIMEOUT_MS,
        });
        options.onStep?.({ kind: "detach", rows: 0, milliseconds: performance.now() - began, lockHeldMilliseconds });
        // Dropped even when the job is stopping: a month detached stays out of the log until some pass drops it.
        if (outcome === "detached" && (await dropDetached(partition.name))) dropped.push(partition.name);
        if (outcome !== "busy") break;
        await sleep(retentionPauseMs);
      }
    }
    return dropped;
  };

  const dropDetached = async (name: string) => {
    const began = performance.now();
    const outcome = await dropDetachedUsageLogPartition(db, name, { lockTimeoutMs: DROP_LOCK_TIMEOUT_MS });
    const milliseconds = performance.now() - began;
    options.onStep?.({ kind: "drop", rows: 0, milliseconds, lockHeldMilliseconds: milliseconds });
    return outcome === "dropped";
  };

  const pass = async () => {
    let deletedRows = 0;
    let deletedRollups = 0;
    let deletedReservations = 0;
    let droppedPartitions: string[] = [];
    if (retentionDays > 0) {
      const createdBefore = context.now() - Math.round(retentionDays * DAY_SECONDS);
      if (context.database.dialect === "postgres") droppedPartitions = await dropPartitionsBefore(createdBefore);
      deletedRows = await deleteInBatches(
        () => deleteUsageLogsCreatedBefore(context.database, createdBefore, retentionBatchSize),
        (batch) => batch === retentionBatchSize,
      );
      // A settled ledger row is kept as long as the usage row of its request, and nothing reads it meanwhile.
      deletedReservations = await deleteInBatches(
        () => deleteSettledReservationsCreatedBefore(context.database, createdBefore, retentionBatchSize),
        (batch) => batch === retentionBatchSize,
      );
    }
    if (rollupRetentionDays > 0) {
      const hourBefore = context.now() - Math.round(rollupRetentionDays * DAY_SECONDS);
      deletedRollups = await deleteInBatches(
        async () => ({ rows: await deleteOldestUsageRollupHourBefore(db, hourBefore) }),
        (batch) => batch > 0,
      );
    }
    const deleted = deletedRows + deletedRollups + deletedReservations;
    if (context.database.dialect === "sqlite" && deleted > 0) await vacuumIncrementally();
    if (deleted + droppedPartitions.length > 0)
      context.logger.info(
        { deletedRows, deletedRollups, deletedReservations, droppedPartitions },
        "deleted usage past its retention",
      );
    return { deletedRows, deletedRollups, deletedReservations, droppedPartitions };
  };

  // Only a database created with auto_vacuum = incremental has pages to give back; elsewhere this does nothing.
  const vacuumIncrementally = async () => {
    while (!stopped) {
      const free = await sql<{ freelist_count: number }>`pragma freelist_count`.execute(db);
      if (Number(free.rows[0]?.freelist_count ?? 0) === 0) return;
      await sql`pragma incremental_vacuum(${sql.lit(VACUUM_PAGES_PER_STEP)})`.execute(db);
      const after = await sql<{ freelist_count: number }>`pragma freelist_count`.execute(db);
      if (Number(after.rows[0]?.freelist_count ?? 0) >= Number(free.rows[0]?.freelist_count ?? 0)) return;
      await sleep(retentionPauseMs);
    }
  };

  const runOnce = () => {
    const result = running.then(pass);
    running = result.catch((error) => context.logger.error({ err: error }, "usage retention failed"));
    return result;
  };

  // The first pass waits a while after start: instances restarted together do not all delete at once, and a start
  // is not slowed by a backlog of deletes.
  const idle = retentionDays === 0 && rollupRetentionDays === 0;
  let timer: NodeJS.Timeout | undefined;
  const schedule = (delayMs: number) => {
    if (idle || stopped) return;
    timer = setTimeout(() => {
      void runOnce()
        .catch(() => undefined)
        .then(() => schedule(options.intervalMs));
    }, delayMs);
    timer.unref();
  };
  schedule(options.firstPassAfterMs);
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
