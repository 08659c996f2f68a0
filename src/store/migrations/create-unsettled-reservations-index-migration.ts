import type { Kysely, Migration } from "kysely";
import { sql } from "kysely";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

/**
 * Recovery only ever looks for unsettled reservations, and those are the few in flight; the full
 * (settled, created_time) index moved an entry on every settlement and grew with every request. A partial index
 * of the unsettled rows stays as small as the requests in flight. Same SQL on SQLite and PostgreSQL.
 */
export function createUnsettledReservationsIndexMigration(): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      await db.schema.dropIndex("quota_reservations_settled_created_time_index").execute();
      await db.schema
        .createIndex("quota_reservations_unsettled_created_time_index")
        .on("quota_reservations")
        .column("created_time")
        .where(sql.ref("settled"), "=", 0)
        .execute();
    },

    async down(db: AnyDatabase): Promise<void> {
      await db.schema.dropIndex("quota_reservations_unsettled_created_time_index").execute();
      await db.schema
        .createIndex("quota_reservations_settled_created_time_index")
        .on("quota_reservations")
        .columns(["settled", "created_time"])
        .execute();
    },
  };
}
