import crypto from "node:crypto";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TEST_DATABASE_URL } from "../testing/open-test-databases.js";
import { SchemaScopedPostgresDialect } from "./create-schema-scoped-postgres-dialect.js";

// The machine's PostgreSQL (DESIGN.md): another session really drops schemas while the migrator's question is asked.
const databaseUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
const ownSchema = `scoped_${crypto.randomBytes(4).toString("hex")}`;
const churnPrefix = `churn_${crypto.randomBytes(4).toString("hex")}`;

function openKysely(Dialect: typeof PostgresDialect): Kysely<unknown> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2, options: `-c search_path=${ownSchema}` });
  return new Kysely<unknown>({ dialect: new Dialect({ pool }) });
}

const administrator = new pg.Client({ connectionString: databaseUrl });
beforeAll(async () => {
  await administrator.connect();
  await administrator.query(`create schema ${ownSchema}`);
  await administrator.query(`create table ${ownSchema}.kysely_migration (name text primary key)`);
  await administrator.query(`create table ${ownSchema}.usage_logs (id bigserial primary key)`);
});
afterAll(async () => {
  await administrator.query(`drop schema if exists ${ownSchema} cascade`);
  await administrator.end();
});

/** Creates and drops schemas holding a serial column in a loop, as tests and retention do, until stopped. */
function startChurn(): { stop: () => Promise<void> } {
  const client = new pg.Client({ connectionString: databaseUrl });
  let running = true;
  const loop = (async () => {
    await client.connect();
    for (let round = 0; running; round += 1) {
      const schema = `${churnPrefix}_${round % 4}`;
      await client.query(`create schema if not exists ${schema}; create table if not exists ${schema}.t (id serial)`);
      await client.query(`drop schema ${schema} cascade`);
    }
    await client.end();
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

describe("SchemaScopedPostgresDialect", () => {
  it("lists the tables of the gateway's own schema only", async () => {
    const db = openKysely(SchemaScopedPostgresDialect);
    try {
      const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
      expect(tables.map((table) => [table.schema, table.name])).toEqual([
        [ownSchema, "kysely_migration"],
        [ownSchema, "usage_logs"],
      ]);
    } finally {
      await db.destroy();
    }
  });

  it("answers the migrator's question while another session drops schemas (the stock introspector raises)", async () => {
    const churn = startChurn();
    const scoped = openKysely(SchemaScopedPostgresDialect);
    const stock = openKysely(PostgresDialect);
    try {
      const scopedFailures: unknown[] = [];
      const stockFailures: unknown[] = [];
      // Until the stock introspector has met a concurrent drop at least once (its failure is what this guards
      // against), ask both the same question at the same moments.
      const giveUpAt = Date.now() + 30_000;
      while (stockFailures.length === 0 && Date.now() < giveUpAt) {
        const [scopedAnswer, stockAnswer] = await Promise.allSettled([
          scoped.introspection.getTables({ withInternalKyselyTables: true }),
          stock.introspection.getTables({ withInternalKyselyTables: true }),
        ]);
        if (scopedAnswer.status === "rejected") scopedFailures.push(scopedAnswer.reason);
        if (stockAnswer.status === "rejected") stockFailures.push(stockAnswer.reason);
      }
      expect(stockFailures.length).toBeGreaterThan(0);
      expect(String(stockFailures[0])).toMatch(/does not exist/);
      expect(scopedFailures).toEqual([]);
    } finally {
      await churn.stop();
      await Promise.all([scoped.destroy(), stock.destroy()]);
    }
  }, 60_000);
});
