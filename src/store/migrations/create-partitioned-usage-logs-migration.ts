import type { Kysely, Migration } from "kysely";
import { sql } from "kysely";
import type { DatabaseDialect } from "../database-dialect.js";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

const MONTHS_AHEAD = 3;
// Months of existing rows that get a partition of their own; anything older goes to the default partition, where
// retention deletes it in batches (a log started decades ago by a wrong clock must not make hundreds of tables).
const MONTHS_BACK_AT_MOST = 36;

/**
 * PostgreSQL: the usage log becomes a table partitioned by month on `created_time`, so retention drops a month's
 * partition at once instead of deleting its rows one batch at a time (and leaving the space to autovacuum).
 *
 * - The primary key must hold the partition key: it becomes (id, created_time). Ids still come from one identity
 *   sequence, so an id alone still names one row; a lookup by id alone probes each partition's key index (a few
 *   partitions: retention keeps the table to `logs.retention_days`).
 * - The same columns in the same order, defaults, the status check and the three indexes (user + time, time,
 *   request id), declared on the parent so every partition gets them.
 * - A partition per month from the oldest row's month (at most 36 months back) to three months ahead, and a default
 *   partition that takes any row no month partition covers (a clock far off), so an insert never fails for want
 *   of a partition. The gateway keeps creating months ahead (src/usage-logs/start-usage-log-partitioning.ts).
 * - The existing rows are copied into the new table once, keeping their ids, and the old table is dropped; the id
 *   sequence continues after the highest id. This runs in the migration's transaction: a large log takes a while
 *   (a copy of every row), once.
 *
 * SQLite has no partitions: its retention deletes in batches and gives pages back by incremental vacuum.
 */
export function createPartitionedUsageLogsMigration(dialect: DatabaseDialect, now: () => number): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      if (dialect !== "postgres") return;
      await sql`alter table usage_logs rename to usage_logs_unpartitioned`.execute(db);
      await sql`alter table usage_logs_unpartitioned rename constraint usage_logs_pkey
        to usage_logs_unpartitioned_pkey`.execute(db);
      for (const index of [
        "usage_logs_user_id_created_time_index",
        "usage_logs_created_time_index",
        "usage_logs_request_id_index",
      ])
        await sql`drop index ${sql.id(index)}`.execute(db);
      await sql`create table usage_logs (like usage_logs_unpartitioned including defaults including constraints
        including identity) partition by range (created_time)`.execute(db);
      await sql`alter table usage_logs add constraint usage_logs_pkey primary key (id, created_time)`.execute(db);
      await sql`create index usage_logs_user_id_created_time_index on usage_logs (user_id, created_time)`.execute(db);
      await sql`create index usage_logs_created_time_index on usage_logs (created_time)`.execute(db);
      await sql`create index usage_logs_request_id_index on usage_logs (request_id)`.execute(db);
      await sql`create table usage_logs_default partition of usage_logs default`.execute(db);

      const existing = await sql<{ oldest: number | string | null; highest: number | string | null }>`
        select min(created_time) as oldest, max(id) as highest from usage_logs_unpartitioned`.execute(db);
      const currentMonth = monthStartOf(now());
      const earliestMonth = addMonths(currentMonth, -MONTHS_BACK_AT_MOST);
      const oldest = existing.rows[0]?.oldest;
      let month =
        oldest === null || oldest === undefined
          ? currentMonth
          : Math.min(currentMonth, Math.max(earliestMonth, monthStartOf(Number(oldest))));
      const lastMonth = addMonths(currentMonth, MONTHS_AHEAD);
      for (; month <= lastMonth; month = addMonths(month, 1)) {
        await sql`create table ${sql.id(monthPartitionName(month))} partition of usage_logs
          for values from (${sql.lit(month)}) to (${sql.lit(addMonths(month, 1))})`.execute(db);
      }

      await sql`insert into usage_logs select * from usage_logs_unpartitioned`.execute(db);
      const highest = existing.rows[0]?.highest;
      if (highest !== null && highest !== undefined)
        await sql`alter table usage_logs alter column id restart with ${sql.lit(Number(highest) + 1)}`.execute(db);
      await sql`drop table usage_logs_unpartitioned`.execute(db);
    },

    async down(db: AnyDatabase): Promise<void> {
      if (dialect !== "postgres") return;
      await sql`create table usage_logs_unpartitioned (like usage_logs including defaults including constraints
        including identity)`.execute(db);
      await sql`insert into usage_logs_unpartitioned select * from usage_logs`.execute(db);
      const highest = await sql<{ highest: number | string | null }>`
        select max(id) as highest from usage_logs_unpartitioned`.execute(db);
      if (highest.rows[0]?.highest !== null && highest.rows[0]?.highest !== undefined)
        await sql`alter table usage_logs_unpartitioned alter column id restart with ${sql.lit(
          Number(highest.rows[0].highest) + 1,
        )}`.execute(db);
      await sql`drop table usage_logs`.execute(db);
      await sql`alter table usage_logs_unpartitioned rename to usage_logs`.execute(db);
      await sql`alter table usage_logs add primary key (id)`.execute(db);
      await sql`create index usage_logs_user_id_created_time_index on usage_logs (user_id, created_time)`.execute(db);
      await sql`create index usage_logs_created_time_index on usage_logs (created_time)`.execute(db);
      await sql`create index usage_logs_request_id_index on usage_logs (request_id)`.execute(db);
    },
  };
}

// Kept beside the migration rather than imported from the store: the migration must make the same names forever.
function monthStartOf(unixSeconds: number): number {
  const date = new Date(unixSeconds * 1000);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / 1000;
}

function addMonths(monthStart: number, months: number): number {
  const date = new Date(monthStart * 1000);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1) / 1000;
}

function monthPartitionName(monthStart: number): string {
  const date = new Date(monthStart * 1000);
  return `usage_logs_${date.getUTCFullYear()}_${String(date.getUTCMonth() + 1).padStart(2, "0")}`;
}
