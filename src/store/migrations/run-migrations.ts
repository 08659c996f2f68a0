import { Migrator, sql } from "kysely";
import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import type { DatabaseDialect } from "../database-dialect.js";
import { createMigrationProvider } from "./create-migration-provider.js";

export async function runMigrations(db: Kysely<Database>, dialect: DatabaseDialect): Promise<void> {
  // Kysely looks for its migration table in every PostgreSQL schema unless told which one,
  // so a gateway sharing a database with another schema would skip creating its own.
  let migrationTableSchema: string | undefined;
  if (dialect === "postgres") {
    const result = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    migrationTableSchema = result.rows[0]?.schema;
  }
  const migrator = new Migrator({
    db,
    provider: createMigrationProvider(dialect),
    ...(migrationTableSchema === undefined ? {} : { migrationTableSchema }),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === "Error")?.migrationName ?? "unknown";
    throw new Error(`Database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}
