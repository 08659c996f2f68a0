import { type Kysely, sql } from "kysely";
import type { DatabaseDialect } from "../database-dialect.js";
import type { Database } from "../database-schema.js";
import { runInTransaction } from "../run-in-transaction.js";
import type { InsertTokenInput } from "./insert-token-input.js";
import { toTokenInsertRow } from "./insert-token-input.js";
import { mapTokenRow } from "./map-token-row.js";
import type { TokenRecord } from "./token-record.js";

export type InsertTokensWithinLimitResult =
  | { inserted: TokenRecord[] }
  /** Nothing was inserted: the user already holds `held` tokens. */
  | { refused: true; held: number };

/**
 * Inserts a user's new tokens only if the user then holds at most `limit`. The count and the insert share one
 * transaction, and on PostgreSQL the user's row is locked first, so two concurrent creations cannot both pass the
 * count and together overshoot it (SQLite runs one write transaction at a time anyway).
 */
export async function insertTokensWithinLimit(
  db: Kysely<Database>,
  dialect: DatabaseDialect,
  userId: number,
  inputs: readonly InsertTokenInput[],
  limit: number,
): Promise<InsertTokensWithinLimitResult> {
  return runInTransaction(db, async (transaction) => {
    if (dialect === "postgres") await sql`select id from users where id = ${userId} for update`.execute(transaction);
    const row = await transaction
      .selectFrom("tokens")
      .select((expression) => expression.fn.countAll<number>().as("count"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    const held = Number(row.count);
    if (held + inputs.length > limit) return { refused: true, held };
    if (inputs.length === 0) return { inserted: [] };
    const rows = await transaction.insertInto("tokens").values(inputs.map(toTokenInsertRow)).returningAll().execute();
    return { inserted: rows.map(mapTokenRow).sort((left, right) => left.id - right.id) };
  });
}
