import type { Kysely, Migration } from "kysely";
import { sql } from "kysely";
import type { DatabaseDialect } from "../database-dialect.js";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

/**
 * PostgreSQL: every settlement adds its usage to an hourly rollup row and to an hour and model rollup row. Such an
 * update may stay in the row's own page without touching any index (a heap-only tuple update) only when no indexed
 * column changes and the page has room. Migration 0015 put every summed column in the INCLUDE list of the user's
 * index, so no update of an hourly rollup could: each one wrote its new row version into another page and a new entry
 * into both of the table's indexes, and left the old ones for vacuum. A commit window updates one hourly rollup row
 * per key it settles for, so a gateway serving many keys writes many of them.
 *
 * So the user's index keys (user_id, hour) and includes only the token, which an update never changes (a token's
 * statistics filter on it in the index), and both rollup tables keep a quarter of every page free for the current
 * hour's row versions. A user's statistics now read the rollup rows they match from the table instead of from the
 * index alone; docs/USAGE-LOGS.md has what that costs, bench/profile-findings.md what the settlements save. Every
 * user's statistics read the hour and model rollups, which are unchanged. SQLite keeps its covering index: it updates
 * the row in place, and moving that index's entry is a few microseconds inside the gateway's own process.
 */
export function createHeapOnlyRollupUpdatesMigration(dialect: DatabaseDialect): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      if (dialect !== "postgres") return;
      await sql`drop index usage_rollups_user_id_hour_covering_index`.execute(db);
      await sql`
        create index usage_rollups_user_id_hour_index on usage_rollups (user_id, hour) include (token_id)
      `.execute(db);
      await sql`alter table usage_rollups set (fillfactor = 75)`.execute(db);
      await sql`alter table usage_model_rollups set (fillfactor = 75)`.execute(db);
    },

    async down(db: AnyDatabase): Promise<void> {
      if (dialect !== "postgres") return;
      await sql`alter table usage_model_rollups reset (fillfactor)`.execute(db);
      await sql`alter table usage_rollups reset (fillfactor)`.execute(db);
      await sql`drop index usage_rollups_user_id_hour_index`.execute(db);
      await sql`
        create index usage_rollups_user_id_hour_covering_index on usage_rollups (user_id, hour)
        include (model, token_id, requests, errors, prompt_tokens, completion_tokens, cached_tokens,
          cache_write_tokens, quota, latency_ms)
      `.execute(db);
    },
  };
}
