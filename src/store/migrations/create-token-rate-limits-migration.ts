import type { Kysely, Migration } from "kysely";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

/** Per-key request and token rate limits; 0 means no limit, so existing tokens keep none. */
export function createTokenRateLimitsMigration(): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      await db.schema
        .alterTable("tokens")
        .addColumn("rpm_limit", "integer", (column) => column.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable("tokens")
        .addColumn("tpm_limit", "integer", (column) => column.notNull().defaultTo(0))
        .execute();
    },

    async down(db: AnyDatabase): Promise<void> {
      await db.schema.alterTable("tokens").dropColumn("tpm_limit").execute();
      await db.schema.alterTable("tokens").dropColumn("rpm_limit").execute();
    },
  };
}
