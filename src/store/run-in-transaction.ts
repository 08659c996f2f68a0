import type { Kysely, Transaction } from "kysely";
import type { Database } from "./database-schema.js";

/** Runs the callback in one transaction: committed when it resolves, rolled back when it throws. */
export function runInTransaction<Result>(
  db: Kysely<Database>,
  callback: (transaction: Transaction<Database>) => Promise<Result>,
): Promise<Result> {
  return db.transaction().execute(callback);
}
