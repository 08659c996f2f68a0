import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from "kysely";
import pg from "pg";
import { DatabaseUnavailableError, UnstorableTextError } from "../../errors/gateway-error.js";

/** How long the gateway waits on PostgreSQL, at each step; every one bounded so a silent network loss ends. */
export interface PostgresTimeouts {
  /** Opening a connection (TCP, TLS, startup), or waiting for a free one in the pool. */
  connectTimeoutMs: number;
  /** Client side: a query whose answer has not arrived by then fails and its connection is discarded; 0: none. */
  queryTimeoutMs: number;
  /** Server side (`statement_timeout`): PostgreSQL cancels a statement running longer; 0 leaves it unbounded. */
  statementTimeoutMs: number;
  /** An idle pooled connection is closed after this. */
  idleTimeoutMs: number;
  /** TCP keep-alive: the first probe after this much silence on a connection. */
  keepAliveInitialDelayMs: number;
}

export const defaultPostgresTimeouts: PostgresTimeouts = {
  connectTimeoutMs: 5_000,
  queryTimeoutMs: 15_000,
  statementTimeoutMs: 10_000,
  idleTimeoutMs: 30_000,
  keepAliveInitialDelayMs: 10_000,
};

export interface CreatePostgresPoolOptions {
  connectionString: string;
  max: number;
  timeouts: PostgresTimeouts;
  /**
   * Distinct statement texts prepared by name on each connection (default 200); later new texts run unnamed, so a
   * connection's server-side statements stay bounded.
   */
  maximumPreparedStatements?: number;
  /** Startup options (`-c search_path=…`). */
  options?: string;
  types: pg.CustomTypesConfig;
}

/**
 * The pg pool Kysely draws from, made to outlive any fault of the server or the network:
 * - an error on a checked-out connection (`pg_terminate_backend`, a reset) is listened for, so it fails the query
 *   under way instead of ending the process as an unhandled `error` event (pg's pool listens on idle ones only);
 * - a connection whose query failed for want of the server (terminated, reset, read timeout) is destroyed when
 *   released rather than handed to the next request: after a read timeout pg keeps the unanswered query as the
 *   connection's active one, so every later query on it would wait behind it;
 * - those failures, and statements cancelled by `statement_timeout`, become DatabaseUnavailableError (503).
 */
export function createPostgresPool(options: CreatePostgresPoolOptions): PostgresPool {
  const { timeouts } = options;
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max,
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    ...(timeouts.queryTimeoutMs > 0 ? { query_timeout: timeouts.queryTimeoutMs } : {}),
    ...(timeouts.statementTimeoutMs > 0 ? { statement_timeout: timeouts.statementTimeoutMs } : {}),
    idleTimeoutMillis: timeouts.idleTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: timeouts.keepAliveInitialDelayMs,
    ...(options.options === undefined ? {} : { options: options.options }),
    types: options.types,
  });
  // An idle pooled connection that the server (or the network) drops emits "error" on the pool; the pool discards
  // it, and the next query reports any lasting outage.
  pool.on("error", () => undefined);
  // A checked-out connection emits "error" on itself, with no listener of the pool's: its query (or the next one,
  // within a transaction) fails instead, and release discards it.
  pool.on("connect", (client) => client.on("error", () => undefined));

  const wrappers = new WeakMap<pg.PoolClient, CheckedOutClient>();
  const statementNames = new StatementNames(options.maximumPreparedStatements ?? 200);
  return {
    async connect() {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw new DatabaseUnavailableError({ cause: error });
      }
      // Kysely keeps one connection object per client it is given: hand it the same wrapper for the same client.
      let wrapper = wrappers.get(client);
      if (wrapper === undefined) {
        wrapper = new CheckedOutClient(client, statementNames);
        wrappers.set(client, wrapper);
      }
      wrapper.broken = false;
      return wrapper;
    },
    end: () => pool.end(),
  };
}

class CheckedOutClient implements PostgresPoolClient {
  /** Set when a query on it failed for want of the server: release then destroys it. */
  broken = false;

  constructor(
    private readonly client: pg.PoolClient,
    private readonly statementNames: StatementNames,
  ) {}

  query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(sql: string | PostgresCursor<R>, parameters?: readonly unknown[]): unknown {
    // Kysely's streaming (cursor) queries are not used by the gateway; they pass through as they are.
    if (typeof sql !== "string") return this.client.query(sql as never);
    const values = parameters as unknown[];
    const name = this.statementNames.nameOf(sql, values.length);
    const answer = name === undefined ? this.client.query(sql, values) : this.client.query({ name, text: sql, values });
    return (answer as unknown as Promise<PostgresQueryResult<R>>).catch((error: unknown) => {
      const failure = classifyPostgresFailure(error);
      // 0A000 on a prepared statement: a table it reads changed shape (a migration of a newer instance); the
      // connection's copy can never run again, so the connection goes and the next one prepares it anew.
      if (failure === "connection" || (name !== undefined && isStalePreparedStatement(error))) this.broken = true;
      if (failure === "sql" && isUnstorableText(error)) throw new UnstorableTextError({ cause: error });
      throw failure === "sql" ? error : new DatabaseUnavailableError({ cause: error });
    });
  }

  release(): void {
    this.client.release(this.broken ? true : undefined);
  }
}

/**
 * Which statement texts run as named prepared statements. Kysely sends every query unnamed, so PostgreSQL parses
 * and plans it again each time; for the ledger's settlement statement (the usage row, its two rollups and the
 * settlement function in one text) that was a large part of a request's database time at one request at a time. A text gets a
 * name the second time it is seen with parameters (a one-off, such as a migration's, never does; a text without
 * parameters keeps pg's simple protocol, which allows several statements in one text), and pg prepares it once
 * per connection. The names are the pool's, shared by its connections; past `maximum` texts, new ones run unnamed.
 */
class StatementNames {
  private readonly names = new Map<string, string>();
  private seenOnce = new Set<string>();

  constructor(private readonly maximum: number) {}

  nameOf(text: string, parameterCount: number): string | undefined {
    if (parameterCount === 0) return undefined;
    const known = this.names.get(text);
    if (known !== undefined || this.names.size >= this.maximum) return known;
    if (!this.seenOnce.has(text)) {
      // Bounded too: texts that differ every time (IN-lists of every length) would otherwise pile up here.
      if (this.seenOnce.size >= this.maximum * 10) this.seenOnce = new Set();
      this.seenOnce.add(text);
      return undefined;
    }
    this.seenOnce.delete(text);
    const name = `gateway_statement_${this.names.size + 1}`;
    this.names.set(text, name);
    return name;
  }
}

/**
 * 22021 (a NUL byte in a text parameter) or 22P05 (`\u0000` in JSON stored as jsonb): what the embedded mode stores,
 * PostgreSQL refuses. Without this it answered 500 (the spec fuzzer, run on PostgreSQL: login, user, quota and
 * redemption operations).
 */
function isUnstorableText(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === "22021" || code === "22P05";
}

function isStalePreparedStatement(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === "0A000";
}

/**
 * `sql`: the statement failed and the connection is fine (a constraint, a syntax error); `connection`: the server
 * or the network failed the connection; `unavailable`: the server refused or cancelled the work (statement timeout,
 * too many connections) but the connection can stay.
 */
export function classifyPostgresFailure(error: unknown): "sql" | "connection" | "unavailable" {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) {
    // 08: connection exception; 57P01–57P05: the server shutting down, restarting or terminating this backend.
    if (code.startsWith("08") || code.startsWith("57P")) return "connection";
    // 57014: cancelled (statement_timeout); 53: insufficient resources (too many connections, out of memory);
    // 40001 / 40P01: a serialization failure or a deadlock the server broke by cancelling this statement — the
    // transaction rolled back whole, so nothing was billed and the client may try again.
    if (code === "57014" || code.startsWith("53") || code === "40001" || code === "40P01") return "unavailable";
    return "sql";
  }
  // No SQLSTATE: the failure is the connection's own (terminated, reset, read timeout, not queryable).
  return "connection";
}
