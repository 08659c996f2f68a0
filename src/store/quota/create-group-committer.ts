import type BetterSqlite3 from 'better-sqlite3';

export type GroupCommitter<Input, Result> = (input: Input) => Promise<Result>;

/**
 * Group commit for SQLite: calls arriving in the same turn of the event loop run in one transaction, each in its
 * own savepoint (one failing call rolls back only itself), and the commit, the costly part of a small write, is
 * paid once for all of them. Each call still runs its own statements exactly as alone; only durability is shared.
 */
export function createGroupCommitter<Input, Result>(
  connection: BetterSqlite3.Database,
  runOne: (input: Input) => Result,
): GroupCommitter<Input, Result> {
  type Pending = { input: Input; resolve(result: Result): void; reject(error: unknown): void };
  let queue: Pending[] = [];
  const runInSavepoint = connection.transaction(runOne);
  const commitAll = connection.transaction((batch: Pending[]) => {
    const outcomes: Array<{ ok: true; result: Result } | { ok: false; error: unknown }> = [];
    for (const pending of batch) {
      try {
        outcomes.push({ ok: true, result: runInSavepoint(pending.input) });
      } catch (error) {
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  });
  const flush = () => {
    // A Kysely transaction waiting at an await would swallow these writes (and lose them if it rolled back).
    if (connection.inTransaction) {
      setImmediate(flush);
      return;
    }
    if (queue.length === 0) return;
    lastFlushAt = performance.now();
    const batch = queue;
    queue = [];
    let outcomes;
    try {
      outcomes = commitAll(batch);
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    outcomes.forEach((outcome, index) => (outcome.ok ? batch[index]!.resolve(outcome.result) : batch[index]!.reject(outcome.error)));
  };
  // Under light load nothing would join a group: waiting for the end of the turn would only add latency.
  let lastFlushAt = -Infinity;
  const quietGapMs = 2;
  return (input) =>
    new Promise<Result>((resolve, reject) => {
      const quiet = queue.length === 0 && performance.now() - lastFlushAt > quietGapMs && !connection.inTransaction;
      queue.push({ input, resolve, reject });
      if (quiet) flush();
      else if (queue.length === 1) setImmediate(flush);
    });
}
