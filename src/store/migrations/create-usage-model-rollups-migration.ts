import type { Kysely, Migration } from "kysely";
import { sql } from "kysely";
import type { DatabaseDialect } from "../database-dialect.js";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

/**
 * Statistics of the whole gateway read a second, coarser rollup, and a user's statistics read their rollups from
 * one index.
 *
 * - `usage_model_rollups`: one row per UTC hour and model, the sums of that hour's usage rows whoever sent them.
 *   The hourly rollups hold a row per user, token, model, channel and group: 240 keys busy every hour are 172,800
 *   rows for 30 days, which a statistics query of every user had to read and group (measured 2.8 s on SQLite at 2
 *   million rows). Here the same 30 days are hours × models, a few thousand rows. Written in the same commit as the
 *   usage row and the hourly rollup, so it stays exactly their sum; filled here from the hourly rollups, so it
 *   equals them from the start.
 * - A user's statistics filter the hourly rollups by user and hour and sum every measure: the index holds those
 *   measures too (SQLite: in the key, which has no INCLUDE; PostgreSQL: as INCLUDE columns), so the query reads the
 *   index alone instead of one table row per rollup.
 */
export function createUsageModelRollupsMigration(dialect: DatabaseDialect): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      await db.schema
        .createTable("usage_model_rollups")
        .addColumn("hour", "bigint", (column) => column.notNull())
        .addColumn("model", "text", (column) => column.notNull())
        .addColumn("requests", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("errors", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("prompt_tokens", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("completion_tokens", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("cached_tokens", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("cache_write_tokens", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("quota", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("latency_ms", "bigint", (column) => column.notNull().defaultTo(0))
        .addPrimaryKeyConstraint("usage_model_rollups_primary_key", ["hour", "model"])
        .execute();
      await sql`
        insert into usage_model_rollups (hour, model, requests, errors, prompt_tokens, completion_tokens,
          cached_tokens, cache_write_tokens, quota, latency_ms)
        select hour, model, sum(requests), sum(errors), sum(prompt_tokens), sum(completion_tokens),
          sum(cached_tokens), sum(cache_write_tokens), sum(quota), sum(latency_ms)
        from usage_rollups
        group by hour, model
      `.execute(db);

      await db.schema.dropIndex("usage_rollups_user_id_hour_index").execute();
      if (dialect === "postgres") {
        await sql`
          create index usage_rollups_user_id_hour_covering_index on usage_rollups (user_id, hour)
          include (model, token_id, requests, errors, prompt_tokens, completion_tokens, cached_tokens,
            cache_write_tokens, quota, latency_ms)
        `.execute(db);
      } else {
        await sql`
          create index usage_rollups_user_id_hour_covering_index on usage_rollups (user_id, hour, model, token_id,
            requests, errors, prompt_tokens, completion_tokens, cached_tokens, cache_write_tokens, quota, latency_ms)
        `.execute(db);
      }
    },

    async down(db: AnyDatabase): Promise<void> {
      await db.schema.dropIndex("usage_rollups_user_id_hour_covering_index").execute();
      await db.schema
        .createIndex("usage_rollups_user_id_hour_index")
        .on("usage_rollups")
        .columns(["user_id", "hour"])
        .execute();
      await db.schema.dropTable("usage_model_rollups").execute();
    },
  };
}
