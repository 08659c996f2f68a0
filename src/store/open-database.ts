import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import pg from "pg";
import { createPostgresPool, defaultPostgresTimeouts, type PostgresTimeouts } from "./postgres/create-postgres-pool.js";
import { SchemaScopedPostgresDialect } from "./postgres/create-schema-scoped-postgres-dialect.js";
import type { Database } from "./database-schema.js";
import type { GatewayDatabase } from "./gateway-database.js";
import { runMigrations } from "./migrations/run-migrations.js";
import { cachePreparedStatements } from "./cache-prepared-statements.js";
import { createCommitWindow } from "./quota/create-commit-window.js";

export type { GatewayDatabase } from "./gateway-database.js";

export interface OpenDatabaseOptions {
  /** PostgreSQL only: connections in the pool (default 10). */
  postgresPoolSize?: number;
  /** PostgreSQL only: statement texts run as named prepared statements (default 200; 0: none, for PgBouncer). */
  postgresPreparedStatements?: number;
  /** PostgreSQL only: schema to use as search_path (tests isolate themselves this way). */
  postgresSchema?: string;
  /** PostgreSQL only: connect, query, statement and idle timeouts and TCP keep-alive (defaults in create-postgres-pool.ts). */
  postgresTimeouts?: Partial<PostgresTimeouts>;
  /** SQLite only: how long the quota ledger's writes may wait to commit together (default 10 ms). */
  sqliteCommitIntervalMs?: number;
  /** SQLite only: a commit window that failed to commit (its writes are lost; default: printed to stderr). */
  onSqliteCommitError?(error: unknown): void;
  /** SQLite only: a deferred ledger write (a settlement) that failed; the rest of its window still commits. */
  onSqliteDeferredError?(error: unknown): void;
}

const POSTGRES_INT8_OID = 20;
const POSTGRES_NUMERIC_OID = 1700;

export async function openDatabase(databaseUrl: string, options: OpenDatabaseOptions = {}): Promise<GatewayDatabase> {
  const gatewayDatabase = databaseUrl.startsWith("sqlite:")
    ? openSqlite(databaseUrl.slice("sqlite:".length), options)
    : databaseUrl.startsWith("postgres://") || databaseUrl.startsWith("postgresql://")
      ? openPostgres(databaseUrl, options)
      : undefined;
  if (gatewayDatabase === undefined) {
    throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got "${describeScheme(databaseUrl)}")`);
  }
  try {
    if (gatewayDatabase.dialect === "postgres") await migratePostgres(databaseUrl, options);
    else await runMigrations(gatewayDatabase.db, gatewayDatabase.dialect);
  } catch (error) {
    await gatewayDatabase.close();
    throw error;
  }
  return gatewayDatabase;
}

function describeScheme(databaseUrl: string): string {
  // Only the scheme: the rest of a URL may hold a password.
  const colon = databaseUrl.indexOf(":");
  return colon === -1 ? databaseUrl.slice(0, 20) : `${databaseUrl.slice(0, colon)}:`;
}

function openSqlite(location: string, options: OpenDatabaseOptions): GatewayDatabase {
  // Accept sqlite:./file, sqlite:/abs/file, sqlite:///abs/file and sqlite::memory:.
  const path = location.startsWith("//") ? location.slice(2) : location;
  if (path === "") {
    throw new Error("DATABASE_URL sqlite: needs a file path, for example sqlite:./data/gateway.db, or sqlite::memory:");
  }
  const inMemory = path === ":memory:";
  if (!inMemory) {
    mkdirSync(dirname(resolve(path)), { recursive: true });
  }
  const connection = new BetterSqlite3(path);
  if (!inMemory) {
    // WAL lets readers proceed while the single writer commits.
    connection.pragma("journal_mode = WAL");
    // In WAL mode NORMAL syncs at checkpoints, not on every commit: a process crash loses nothing and the file
    // cannot corrupt; only a power loss can drop the last commits. FULL would fsync three times per request.
    connection.pragma("synchronous = NORMAL");
  }
  // Statement journals (every write inside the open commit window, every savepoint, every UPDATE … RETURNING)
  // stay in memory instead of a temporary file opened and removed per statement: measured on this schema, the
  // ledger's UPDATE … RETURNING inside an open transaction took ~14 µs with the default and ~4 µs with this (in a loop).
  connection.pragma("temp_store = MEMORY");
  connection.pragma("busy_timeout = 5000");
  // Usage retention deletes old rows; with incremental auto-vacuum it can give their pages back to the file system a
  // few at a time. Takes effect only on a database that has no table yet (an older file keeps its mode until a VACUUM).
  connection.pragma("auto_vacuum = INCREMENTAL");
  connection.pragma("foreign_keys = ON");
  const commitWindow = createCommitWindow(connection, {
    intervalMs: options.sqliteCommitIntervalMs ?? 10,
    onCommitError:
      options.onSqliteCommitError ?? ((error) => console.error("SQLite commit window failed to commit", error)),
    onDeferredError:
      options.onSqliteDeferredError ?? ((error) => console.error("a deferred SQLite ledger write failed", error)),
  });
  // Before any other write or transaction through Kysely the open window commits: a transaction cannot nest, and
  // a write the API acknowledged (a new token, a password) must not wait for the ledger's window to be durable.
  // Before any other query the window's deferred writes run (create-commit-window.ts): a balance read right after
  // an answer includes that request's settlement.
  const statements = cachePreparedStatements(connection, {
    beforeStatement: () => commitWindow.applyDeferred(),
    beforeWrite: () => commitWindow.commitNow(),
  });
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
  const close = async () => {
    commitWindow.commitNow();
    await db.destroy();
  };
  return {
    db,
    dialect: "sqlite",
    sqliteConnection: connection,
    sqliteCommitWindow: commitWindow,
    close: createOnceCloser(close),
  };
}

function openPostgres(databaseUrl: string, options: OpenDatabaseOptions): GatewayDatabase {
  const db = createPostgresKysely(databaseUrl, options, options.postgresPoolSize ?? 10, {
    ...defaultPostgresTimeouts,
    ...options.postgresTimeouts,
  });
  return { db, dialect: "postgres", close: createOnceCloser(() => db.destroy()) };
}

/**
 * Migrations run on a connection of their own without statement or query timeout: instances starting together wait
 * on Kysely's migration lock (a PostgreSQL advisory lock) while the first migrates, which may take longer than any
 * request should.
 */
async function migratePostgres(databaseUrl: string, options: OpenDatabaseOptions): Promise<void> {
  const db = createPostgresKysely(databaseUrl, options, 1, {
    ...defaultPostgresTimeouts,
    ...options.postgresTimeouts,
    queryTimeoutMs: 0,
    statementTimeoutMs: 0,
  });
  try {
    await runMigrations(db, "postgres");
  } finally {
    await db.destroy();
  }
}

function createPostgresKysely(
  databaseUrl: string,
  options: OpenDatabaseOptions,
  poolSize: number,
  timeouts: PostgresTimeouts,
): Kysely<Database> {
  if (options.postgresSchema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(options.postgresSchema)) {
    throw new Error(`Invalid PostgreSQL schema name "${options.postgresSchema}"`);
  }
  const pool = createPostgresPool({
    connectionString: databaseUrl,
    max: poolSize,
    timeouts,
    ...(options.postgresPreparedStatements === undefined
      ? {}
      : { maximumPreparedStatements: options.postgresPreparedStatements }),
    ...(options.postgresSchema === undefined ? {} : { options: `-c search_path=${options.postgresSchema}` }),
    // Quota, ids and times are bigint columns; their values stay far below 2^53, so numbers are
    // exact. Set per pool, not on the global pg.types, so other pg users are unaffected.
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") => {
        if (oid === POSTGRES_INT8_OID || oid === POSTGRES_NUMERIC_OID) {
          return parseExactNumber;
        }
        return pg.types.getTypeParser(oid, format);
      }) as typeof pg.types.getTypeParser,
    },
  });
  return new Kysely<Database>({ dialect: new SchemaScopedPostgresDialect({ pool }) });
}

function parseExactNumber(value: string): number {
  const parsed = Number(value);
  if (Number.isInteger(parsed) && !Number.isSafeInteger(parsed)) {
    throw new RangeError(`PostgreSQL returned ${value}, beyond JavaScript's exact integer range`);
  }
  return parsed;
}

function createOnceCloser(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}
