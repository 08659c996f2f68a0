import type BetterSqlite3 from "better-sqlite3";
import type { SqliteDatabase } from "kysely";

/**
 * Kysely's SQLite driver prepares every statement again on every query; preparing is most of the cost of a small
 * query (the benchmark's profile: Kysely with better-sqlite3 was about 40% of the gateway's busy time). The same
 * SQL text gets the same prepared statement here. A statement runs to completion synchronously inside one call,
 * so reusing it is safe. Bounded: SQL with variable IN-lists produces many texts.
 */
export function cachePreparedStatements(
  connection: BetterSqlite3.Database,
  options: { maximumStatements?: number; beforeStatement?: () => void; beforeWrite?: () => void } = {},
): SqliteDatabase {
  const maximumStatements = options.maximumStatements ?? 500;
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    prepare(sql: string) {
      // Kysely prepares a statement right before running it, so these run just before any query, write or transaction.
      options.beforeStatement?.();
      if (options.beforeWrite && !sql.startsWith("select")) options.beforeWrite();
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = connection.prepare(sql);
        if (statements.size >= maximumStatements) statements.delete(statements.keys().next().value as string);
        statements.set(sql, statement);
      }
      return statement as unknown as ReturnType<SqliteDatabase["prepare"]>;
    },
    close() {
      statements.clear();
      connection.close();
    },
  };
}
