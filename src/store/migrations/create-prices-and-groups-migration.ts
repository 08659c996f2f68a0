import type { Kysely, Migration } from "kysely";
import { sql } from "kysely";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

/**
 * Prices and groups become data every instance reads from the store, so an administrator changes them without a
 * restart. A price is one JSON object of the configuration file's keys (they grow as providers bill new things; a
 * column per key would need a migration each time). `source` tells the rows the configuration file rewrites at every
 * start (`config`) from those an administrator made (`api`), as for channels. `position` keeps the file's order of
 * groups, which is also the failover order of `auto` when the file names none.
 */
export function createPricesAndGroupsMigration(): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      await db.schema
        .createTable("model_prices")
        .addColumn("model", "text", (column) => column.primaryKey())
        .addColumn("source", "text", (column) => column.notNull())
        .addColumn("price", "text", (column) => column.notNull())
        .addColumn("updated_time", "bigint", (column) => column.notNull())
        .addCheckConstraint("model_prices_source_check", sql`source in ('config', 'api')`)
        .execute();
      await db.schema
        .createTable("billing_groups")
        .addColumn("name", "text", (column) => column.primaryKey())
        .addColumn("source", "text", (column) => column.notNull())
        .addColumn("ratio", "double precision", (column) => column.notNull().check(sql`ratio >= 0`))
        .addColumn("description", "text", (column) => column.notNull().defaultTo(""))
        .addColumn("selectable", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("position", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("updated_time", "bigint", (column) => column.notNull())
        .addCheckConstraint("billing_groups_source_check", sql`source in ('config', 'api')`)
        .execute();
    },

    async down(db: AnyDatabase): Promise<void> {
      await db.schema.dropTable("billing_groups").execute();
      await db.schema.dropTable("model_prices").execute();
    },
  };
}
