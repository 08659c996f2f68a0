import type { Logger } from "../logging/logger.js";
import type { GatewayDatabase } from "../store/gateway-database.js";
import type { CommitWindow } from "../store/quota/create-commit-window.js";
import { insertUsageLogs } from "../store/usage-logs/insert-usage-logs.js";
import type { NewUsageLog } from "../store/usage-logs/insert-usage-logs.js";

export interface UsageLogWriter {
  enqueue(log: NewUsageLog): void;
  /** Resolves once every row queued before the call is written (or its failure logged); never rejects. */
  flush(): Promise<void>;
}

// 19 columns × 500 rows stays far below SQLite's and PostgreSQL's bound-parameter limits.
const MAX_ROWS_PER_STATEMENT = 500;

/**
 * Buffers usage rows and writes them in batches, so the request path never waits on the log table. A timer runs only
 * while rows are waiting (and is unref'd), so an idle gateway or a finished test holds no handle open. Writes are
 * chained so flush() also waits for a batch the timer already took. A failed write is logged with the rows' request
 * ids and dropped: the balance was already settled, and retrying forever could grow the queue without bound.
 */
export function createUsageLogWriter(
  database: Pick<GatewayDatabase, "db" | "dialect">,
  logger: Logger,
  flushIntervalMs: number,
  sqlite?: { insertOne(log: NewUsageLog): void; commitWindow: CommitWindow },
): UsageLogWriter {
  if (sqlite) return createWindowedUsageLogWriter(logger, sqlite);
  let queue: NewUsageLog[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writes: Promise<void> = Promise.resolve();

  async function write(batch: NewUsageLog[]): Promise<void> {
    for (let start = 0; start < batch.length; start += MAX_ROWS_PER_STATEMENT) {
      const rows = batch.slice(start, start + MAX_ROWS_PER_STATEMENT);
      try {
        await insertUsageLogs(database.db, database.dialect, rows);
      } catch (error) {
        logger.error(
          { err: error, requestIds: rows.map((row) => row.requestId) },
          "could not write usage log rows; they are dropped",
        );
      }
    }
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = queue;
    queue = [];
    writes = writes.then(() => write(batch));
    return writes;
  }

  return {
    enqueue(log) {
      queue.push(log);
      timer ??= setTimeout(() => void flush(), flushIntervalMs).unref();
    },
    flush,
  };
}

/**
 * SQLite: each row is one prepared insert deferred into the ledger's commit window (create-commit-window.ts), so
 * it is written with the settlement beside it, before any query could look for it, and commits with it; flush
 * commits the window.
 */
function createWindowedUsageLogWriter(
  logger: Logger,
  sqlite: { insertOne(log: NewUsageLog): void; commitWindow: CommitWindow },
): UsageLogWriter {
  return {
    enqueue(log) {
      sqlite.commitWindow.defer(
        () => sqlite.insertOne(log),
        (error) =>
          logger.error({ err: error, requestIds: [log.requestId] }, "could not write usage log rows; they are dropped"),
      );
    },
    async flush() {
      sqlite.commitWindow.commitNow();
    },
  };
}
