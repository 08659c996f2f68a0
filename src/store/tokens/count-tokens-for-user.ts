import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

export async function countTokensForUser(db: Kysely<Database>, userId: number): Promise<number> {
  const row = await db
    .selectFrom("tokens")
    .select((expression) => expression.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
