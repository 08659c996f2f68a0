import type { Kysely, Migration } from "kysely";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

/**
 * Which channel and key answered a Responses call: one row per upstream id the answer created (the response and its
 * output items), so a continuation (`previous_response_id`, an `item_reference` input item) reaches the account
 * that holds it. Rows older than the retention are ignored and swept; the index on the time keeps the sweep cheap.
 */
export function createResponseRoutesMigration(): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      await db.schema
        .createTable("response_routes")
        .addColumn("upstream_id", "text", (column) => column.primaryKey())
        .addColumn("channel_id", "bigint", (column) => column.notNull())
        .addColumn("key_index", "integer", (column) => column.notNull())
        .addColumn("created_time", "bigint", (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex("response_routes_created_time_index")
        .on("response_routes")
        .column("created_time")
        .execute();
    },

    async down(db: AnyDatabase): Promise<void> {
      await db.schema.dropTable("response_routes").execute();
    },
  };
}
