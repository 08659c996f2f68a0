import { sql } from "kysely";
import type { GatewayDatabase } from "./gateway-database.js";

/** Resolves when the database answers a trivial query (readiness probe); rejects with its error otherwise. */
export async function checkDatabase(database: GatewayDatabase): Promise<void> {
  await sql`select 1`.execute(database.db);
}
