import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

export async function countChannels(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("channels")
    .select((expression) => expression.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
