import crypto from "node:crypto";
import pg from "pg";
import type { ChildServer } from "./start-child-server.js";
import { provisionGatewayToken } from "./provision-gateway-token.js";
import {
  benchModel,
  type GatewayLaunch,
  startGatewayProcess,
  startHandWrittenFloor,
  upstreamKey,
} from "./start-bench-servers.js";

/** The PostgreSQL server and Redis the multi-instance points run against (BENCH_POSTGRES_URL, BENCH_REDIS_URL). */
export const benchPostgresServerUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const benchRedisUrl = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";

export interface PostgresGateways {
  /** The gateway processes, all on one fresh database and one Redis key prefix. */
  servers: ChildServer[];
  urls: string[];
  /** `authorization` headers: [0] is the one hot key, all 64 are the many-keys points. */
  keyHeaders: Record<string, string>[];
  /** Connects to the bench database (for PostgreSQL's CPU per request: its backends serving the gateways). */
  databaseUrl: string;
  stop(): Promise<void>;
}

const manyKeys = 64;

/**
 * The multi-instance mode as an operator runs it: `instances` gateway processes on one fresh PostgreSQL database and
 * one Redis (a fresh key prefix), started one after the other with one root token, and 64 limited keys of one user.
 */
export async function startPostgresGateways(
  projectRoot: string,
  upstreamUrl: string,
  launch: GatewayLaunch,
  instances: number,
  /** More of the gateways' environment (a setting a probe compares). */
  environment: Record<string, string> = {},
  /** Added to every instance's configuration file (e.g. `logs`). */
  extraConfig: object = {},
): Promise<PostgresGateways> {
  const databaseName = `bench_${crypto.randomBytes(6).toString("hex")}`;
  await administer(`create database ${databaseName}`);
  const databaseUrl = withDatabase(benchPostgresServerUrl, databaseName);
  const adminToken = `bench-admin-${crypto.randomBytes(12).toString("hex")}`;
  const started: Awaited<ReturnType<typeof startGatewayProcess>>[] = [];
  const stop = async () => {
    await Promise.all(started.map((gateway) => gateway.server.stop()));
    await administer(`drop database if exists ${databaseName} with (force)`);
  };
  try {
    for (let index = 0; index < instances; index += 1) {
      started.push(
        await startGatewayProcess(projectRoot, launch, {
          adminToken,
          environment: {
            DATABASE_URL: databaseUrl,
            REDIS_URL: benchRedisUrl,
            REDIS_KEY_PREFIX: databaseName,
            ...environment,
          },
          config: {
            channels: [
              { name: "bench", type: "openai", base_url: upstreamUrl, key: upstreamKey, models: [benchModel] },
            ],
            pricing: { [benchModel]: { input: 1, output: 2 } },
            key_reveal_rate_limit: { points: 1_000, duration_seconds: 60 },
            ...extraConfig,
          },
        }),
      );
    }
    const keyHeaders: Record<string, string>[] = [];
    for (let index = 0; index < manyKeys; index += 1) {
      const token = await provisionGatewayToken(started[0]!.url, adminToken, {
        name: `bench-${index}`,
        unlimited: false,
      });
      keyHeaders.push({ authorization: `Bearer ${token.apiKey}` });
    }
    return {
      servers: started.map((gateway) => gateway.server),
      urls: started.map((gateway) => gateway.url),
      keyHeaders,
      databaseUrl,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The hand-written floor on the multi-instance mode's ledger: `instances` floor processes
 * (children/hand-written-floor-process.ts) on one fresh PostgreSQL database, started one after the other, on one key
 * (the first creates its user and token) or on a key of a user of its own each (`keyHeaders[i]` is process i's).
 * Their figures are what the same skeleton pays on PostgreSQL, beside the SQLite floor's.
 */
export async function startPostgresFloors(
  projectRoot: string,
  upstreamUrl: string,
  instances: number,
  keys: "one key" | "a key each" = "one key",
): Promise<PostgresGateways> {
  const databaseName = `bench_floor_${crypto.randomBytes(6).toString("hex")}`;
  await administer(`create database ${databaseName}`);
  const databaseUrl = withDatabase(benchPostgresServerUrl, databaseName);
  const started: Awaited<ReturnType<typeof startHandWrittenFloor>>[] = [];
  const stop = async () => {
    await Promise.all(started.map((floor) => floor.server.stop()));
    await administer(`drop database if exists ${databaseName} with (force)`);
  };
  try {
    for (let index = 0; index < instances; index += 1)
      started.push(
        await startHandWrittenFloor(projectRoot, upstreamUrl, {
          postgresUrl: databaseUrl,
          ...(keys === "a key each" ? { keySuffix: `${index}` } : {}),
        }),
      );
    return {
      servers: started.map((floor) => floor.server),
      urls: started.map((floor) => floor.url),
      keyHeaders: keys === "a key each" ? started.map((floor) => floor.headers) : [started[0]!.headers],
      databaseUrl,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function withDatabase(serverUrl: string, databaseName: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
}

async function administer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: benchPostgresServerUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Process ids of the PostgreSQL backends connected to `databaseUrl`'s database (the gateways' pools). */
export async function listDatabaseBackends(databaseUrl: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
    return result.rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

/**
 * Transactions committed in `databaseUrl`'s database so far (pg_stat_database; backends report at most once a
 * second, so read it a second after the load stops). The gateways are the database's only clients.
 */
export async function readDatabaseCommits(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("select pg_stat_clear_snapshot()");
    const result = await client.query<{ commits: string }>(
      "select xact_commit as commits from pg_stat_database where datname = current_database()",
    );
    return Number(result.rows[0]!.commits);
  } finally {
    await client.end();
  }
}
