import type { Kysely, Migration } from "kysely";
import { sql } from "kysely";
import type { DatabaseDialect } from "../database-dialect.js";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

/**
 * PostgreSQL: every settlement adds its usage to an hourly rollup row, and that update may stay in the row's own page
 * without touching any index (a heap-only tuple update) only when no indexed column changes and the page has room.
 * Migration 0015 put every measure in the INCLUDE list of the user's index, so none of those updates could:
 * each wrote a new row version elsewhere, a new entry in the primary key's index and one in the covering index, and
 * left three dead entries for vacuum. A gateway serving many keys updates as many rollup rows per commit window as
 * keys (one hot key updates one), which is where most of the extra PostgreSQL CPU of the 64-key benchmark went
 * (bench/profile-findings.md).
 *
 * So the user's index keys (user_id, hour) and includes nothing, and the rollup tables keep a quarter of every page
 * free for the current hour's row versions. A user's statistics now read the rollup rows they match from the table,
 * not from the index alone (measured in bench/profile-findings.md); the hour and model rollups that every user's
 * statistics read are unchanged. SQLite updates rows in place and keeps its covering index.
 */
export function createHeapOnlyRollupUpdatesMigration(dialect: DatabaseDialect): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      if (dialect !== "postgres") return;
      await sql`drop index usage_rollups_user_id_hour_covering_index`.execute(db);
      await sql`create index usage_rollups_user_id_hour_index on usage_rollups (user_id, hour) include (token_id)`.execute(db);
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
