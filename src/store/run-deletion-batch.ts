import { type DeleteQueryBuilder, sql } from "kysely";
import type { Database } from "./database-schema.js";
import type { GatewayDatabase } from "./gateway-database.js";

/** A batch of rows deleted by a retention job, and how long its statement held the database's lock. */
export interface DeletedBatch {
  rows: number;
  /**
   * SQLite: from the one writer's lock taken to the commit. PostgreSQL: the statement's execution in the server,
   * during which it takes the rows it deletes (no request touches them; the table itself it holds only in a mode no
   * insert or read waits on), released at the commit that follows at once.
   */
  lockHeldMilliseconds: number;
}

/**
 * Runs one batch of a retention job's deletion (a statement bounded by its own `limit`) in a transaction of its own.
 *
 * On SQLite the statement runs on the connection itself, timed from the writer's lock taken to its commit: the time
 * around a Kysely call adds the wait for the connection (a request's transaction under way) and for the event loop,
 * when the job holds no lock. It takes the connection through Kysely first, so it never joins a request's open
 * transaction, and commits the ledger's open window first, so it never joins that.
 */
export async function runDeletionBatch<Table extends keyof Database & string>(
  database: GatewayDatabase,
  deletion: DeleteQueryBuilder<Database, Table, unknown>,
): Promise<DeletedBatch> {
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
    with deleted as (${deletion.returning(sql<number>`1`.as("one"))})
    select count(*) as rows,
      1000 * extract(epoch from clock_timestamp() - statement_timestamp()) as executed_milliseconds
    from deleted`.execute(database.db);
  const row = result.rows[0]!;
  return { rows: Number(row.rows), lockHeldMilliseconds: Number(row.executed_milliseconds) };
}
