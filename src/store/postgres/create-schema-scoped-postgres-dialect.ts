import { type DatabaseIntrospector, type Kysely, PostgresDialect, type PostgresDialectConfig, sql } from "kysely";
import type { DatabaseMetadataOptions, SchemaMetadata, TableMetadata } from "kysely";
import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE } from "kysely";

const kyselyTables = new Set([DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE]);

/**
 * Kysely's PostgreSQL introspector lists every column of every schema with `has_schema_privilege` and
 * `pg_get_serial_sequence`, which raise "does not exist" when another session drops a schema or table meanwhile.
 * Its migrator asks it whether the migration tables exist on every start, so a gateway starting while another
 * instance drops a month of the usage log (retention), or while another schema of the same database is dropped,
 * failed to start. The migrator only needs table names of the gateway's own schema: this introspector reads those
 * from the catalogue alone, with no function that can fail on a concurrent drop.
 */
class SchemaScopedPostgresIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const result = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(this.db);
    return result.rows.map((row) => ({ name: row.name }));
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const result = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, n.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'v', 'p')
      order by c.relname`.execute(this.db);
    return result.rows
      .filter((row) => options.withInternalKyselyTables || !kyselyTables.has(row.name))
      .map((row) => ({ name: row.name, schema: row.schema, isView: row.kind === "v", columns: [] }));
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<{ tables: TableMetadata[] }> {
    return { tables: await this.getTables(options) };
  }
}

export class SchemaScopedPostgresDialect extends PostgresDialect {
  constructor(config: PostgresDialectConfig) {
    super(config);
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SchemaScopedPostgresIntrospector(db);
  }
}
