import { type Kysely, sql } from "kysely";
import type { Database } from "../database-schema.js";
import type { GatewayDatabase } from "../gateway-database.js";

/** A batch of deleted usage rows, and how long its statement held the database's lock. */
export interface DeletedUsageBatch {
  rows: number;
  /**
   * SQLite: from the one writer's lock taken to the commit. PostgreSQL: the statement's execution in the server,
   * during which it takes the rows it deletes (no request touches them; the log itself it holds only in a mode no
   * insert or read waits on), released at the commit that follows at once.
   */
  lockHeldMilliseconds: number;
}

/**
 * Deletes at most `limit` usage rows created before `createdBefore` (Unix seconds), oldest first. Small batches keep
 * each delete's transaction (and on SQLite the one writer) short, so requests never wait long.
 *
 * On SQLite the statement runs on the connection itself, in a transaction of its own timed from the writer's lock
 * taken to its commit: the time around a Kysely call adds the wait for the connection (a request's transaction
 * under way) and for the event loop, when the job holds no lock. It takes the connection through Kysely first, so
 * it never joins a request's open transaction, and commits the ledger's open window first, so it never joins that.
 */
export async function deleteUsageLogsCreatedBefore(
  database: GatewayDatabase,
  createdBefore: number,
  limit: number,
): Promise<DeletedUsageBatch> {
  // The time condition twice: on PostgreSQL the outer one keeps the delete to the partitions that can hold the rows.
  const deletion = database.db
    .deleteFrom("usage_logs")
    .where("created_time", "<", createdBefore)
    .where("id", "in", (query) =>
      query.selectFrom("usage_logs").select("id").where("created_time", "<", createdBefore).orderBy("id").limit(limit),
    );
  const { sqliteConnection, sqliteCommitWindow } = database;
  if (sqliteConnection && sqliteCommitWindow) {
    const compiled = deletion.compile();
    const statement = sqliteConnection.prepare(compiled.sql);
    return database.db.connection().execute(async () => {
      sqliteCommitWindow.commitNow();
      // The writer's lock is taken first and untimed: from another process (the bench's job beside a gateway) this
      // waits, in SQLite's busy handler, for that process to give it up, which is waiting, not holding.
      sqliteConnection.exec("begin immediate");
      const began = performance.now();
      try {
        const { changes } = statement.run(...compiled.parameters);
        sqliteConnection.exec("commit");
        return { rows: changes, lockHeldMilliseconds: performance.now() - began };
      } catch (error) {
        if (sqliteConnection.inTransaction) sqliteConnection.exec("rollback");
        throw error;
      }
    });
  }
  // PostgreSQL: the server's own time for the statement, from its start to the last row deleted; the commit, one log
  // flush, follows at once. The round trip around it adds the network and this process's event loop.
  const result = await sql<{ rows: string; executed_milliseconds: string }>`
    with deleted as (${deletion.returning("id")})
    select count(*) as rows,
      1000 * extract(epoch from clock_timestamp() - statement_timestamp()) as executed_milliseconds
    from deleted`.execute(database.db);
  const row = result.rows[0]!;
  return { rows: Number(row.rows), lockHeldMilliseconds: Number(row.executed_milliseconds) };
}

/**
 * Deletes the rollups (hourly, and hour and model) of the oldest hour before `hourBefore`, if any: one hour at a
 * time, whose rows are bounded by the users, tokens and models active in it. Returns how many rows went.
 */
export async function deleteOldestUsageRollupHourBefore(db: Kysely<Database>, hourBefore: number): Promise<number> {
  const oldest = async (table: "usage_rollups" | "usage_model_rollups") => {
    const row = await db
      .selectFrom(table)
      .select((expression) => expression.fn.min<number>("hour").as("hour"))
      .where("hour", "<", hourBefore)
      .executeTakeFirst();
    return row?.hour === null || row?.hour === undefined ? undefined : Number(row.hour);
  };
  // Each table's own oldest hour: the two deletes are separate statements, and a pass cut between them (a stop, a
  // crash) leaves the next pass an hour that only one of them still holds.
  const hours = [await oldest("usage_rollups"), await oldest("usage_model_rollups")].filter(
    (hour): hour is number => hour !== undefined,
  );
  if (hours.length === 0) return 0;
  const hour = Math.min(...hours);
  const rollups = await db.deleteFrom("usage_rollups").where("hour", "=", hour).executeTakeFirst();
  const modelRollups = await db.deleteFrom("usage_model_rollups").where("hour", "=", hour).executeTakeFirst();
  return Number(rollups.numDeletedRows) + Number(modelRollups.numDeletedRows);
}
