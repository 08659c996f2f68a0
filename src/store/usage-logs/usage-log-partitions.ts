import { type Kysely, sql } from "kysely";
import type { Database } from "../database-schema.js";

/** One month partition of the PostgreSQL usage log: rows with `from <= created_time < to` (Unix seconds). */
export interface UsageLogPartition {
  name: string;
  from: number;
  to: number;
}

/** The first second of the UTC month holding `unixSeconds`. */
export function monthStartOf(unixSeconds: number): number {
  const date = new Date(unixSeconds * 1000);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / 1000;
}

export function addMonths(monthStart: number, months: number): number {
  const date = new Date(monthStart * 1000);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1) / 1000;
}

/** `usage_logs_2026_11`: the name the migration gave the months it made, so both find each other's partitions. */
export function monthPartitionName(monthStart: number): string {
  const date = new Date(monthStart * 1000);
  return `usage_logs_${date.getUTCFullYear()}_${String(date.getUTCMonth() + 1).padStart(2, "0")}`;
}

/**
 * Creates the month partitions of `months` (month starts) that do not exist yet; returns the names it created.
 * Several instances may run this at once: each month is made under a transaction-scoped advisory lock of this
 * schema's usage log, and whoever comes second finds the partition there. A month's new table is attached rather
 * than created as a partition, which leaves the parent open to inserts and reads meanwhile; rows of that month that
 * an earlier insert put in the default partition (no month partition existed) move into it in the same transaction.
 * Every lock is waited for at most `lockTimeoutMs`: a month not made now is made by the next run, and until then its
 * rows go to the default partition.
 */
export async function createUsageLogPartitions(
  db: Kysely<Database>,
  months: readonly number[],
  options: { lockTimeoutMs: number },
): Promise<string[]> {
  const created: string[] = [];
  for (const month of months) {
    const name = monthPartitionName(month);
    const next = addMonths(month, 1);
    const made = await db.transaction().execute(async (transaction) => {
      await lockPartitionsOfThisSchema(transaction, options.lockTimeoutMs);
      const existing = await sql<{ found: string | null }>`
        select to_regclass(quote_ident(current_schema()) || '.' || ${name}) as found`.execute(transaction);
      if (existing.rows[0]?.found !== null && existing.rows[0]?.found !== undefined) return false;
      await sql`create table ${sql.id(name)} (like usage_logs including defaults including constraints)`.execute(
        transaction,
      );
      await sql`with moved as (delete from usage_logs_default
          where created_time >= ${sql.lit(month)} and created_time < ${sql.lit(next)} returning *)
        insert into ${sql.id(name)} select * from moved`.execute(transaction);
      // The same bounds as a check first: attaching then skips scanning the new table to prove them.
      await sql`alter table ${sql.id(name)} add constraint ${sql.id(`${name}_range`)}
        check (created_time >= ${sql.lit(month)} and created_time < ${sql.lit(next)})`.execute(transaction);
      await sql`alter table usage_logs attach partition ${sql.id(name)}
        for values from (${sql.lit(month)}) to (${sql.lit(next)})`.execute(transaction);
      await sql`alter table ${sql.id(name)} drop constraint ${sql.id(`${name}_range`)}`.execute(transaction);
      return true;
    });
    if (made) created.push(name);
  }
  return created;
}

/** The month partitions (not the default one), oldest first, with the bounds PostgreSQL holds for them. */
export async function listUsageLogPartitions(db: Kysely<Database>): Promise<UsageLogPartition[]> {
  const result = await sql<{ name: string; bound: string }>`
    select child.relname as name, pg_get_expr(child.relpartbound, child.oid) as bound
    from pg_inherits
    join pg_class child on child.oid = pg_inherits.inhrelid
    join pg_class parent on parent.oid = pg_inherits.inhparent
    join pg_namespace on pg_namespace.oid = parent.relnamespace
    where parent.relname = 'usage_logs' and pg_namespace.nspname = current_schema()`.execute(db);
  const partitions: UsageLogPartition[] = [];
  for (const row of result.rows) {
    const bounds = /FROM \('?(-?\d+)'?\) TO \('?(-?\d+)'?\)/.exec(row.bound);
    if (bounds) partitions.push({ name: row.name, from: Number(bounds[1]), to: Number(bounds[2]) });
  }
  return partitions.sort((left, right) => left.from - right.from);
}

/**
 * Detaches a month partition, in a transaction of its own: its rows leave the usage log at once. Detaching takes the
 * parent's strongest lock, for a catalogue change only; it waits at most `lockTimeoutMs` for statements under way (a
 * long export, say) and then gives up (`busy`), so requests never queue long behind it. The detached table is
 * dropped afterwards by `dropDetachedUsageLogPartition`, in a transaction that locks that table alone, so the parent's
 * lock is not held while the table's files go (tens of milliseconds under load). Under the same advisory lock as the
 * months' creation, so two instances' retention passes do not detach one partition twice: the second finds it `gone`.
 */
export async function detachUsageLogPartition(
  db: Kysely<Database>,
  name: string,
  options: { lockTimeoutMs: number },
): Promise<{ outcome: "detached" | "busy" | "gone"; lockHeldMilliseconds: number }> {
  // From the detach statement to the commit: the parent's lock is asked for (a request arriving meanwhile queues
  // behind the detach) and held in that span only; the statements before it take no lock on the log.
  let detachBegan: number | undefined;
  const heldSince = () => (detachBegan === undefined ? 0 : performance.now() - detachBegan);
  try {
    const outcome = await db.transaction().execute(async (transaction) => {
      await lockPartitionsOfThisSchema(transaction, options.lockTimeoutMs);
      const attached = await sql<{ found: number }>`
        select 1 as found from pg_inherits
        where inhrelid = to_regclass(quote_ident(current_schema()) || '.' || ${name})
          and inhparent = 'usage_logs'::regclass`.execute(transaction);
      if (attached.rows.length === 0) return "gone" as const;
      detachBegan = performance.now();
      await sql`alter table usage_logs detach partition ${sql.id(name)}`.execute(transaction);
      return "detached" as const;
    });
    return { outcome, lockHeldMilliseconds: heldSince() };
  } catch (error) {
    if (isLockTimeout(error)) return { outcome: "busy", lockHeldMilliseconds: heldSince() };
    throw error;
  }
}

/**
 * Month tables of this schema (named as `monthPartitionName` names them) that are no table's partition, oldest
 * first: what a crash (or a failed drop) between a detach and its drop left behind. The bounds are the name's month.
 */
export async function listDetachedUsageLogPartitions(db: Kysely<Database>): Promise<UsageLogPartition[]> {
  const result = await sql<{ name: string }>`
    select pg_class.relname as name
    from pg_class
    join pg_namespace on pg_namespace.oid = pg_class.relnamespace
    where pg_namespace.nspname = current_schema() and pg_class.relkind = 'r' and not pg_class.relispartition
      and pg_class.relname ~ '^usage_logs_[0-9]{4}_[0-9]{2}$'
      and not exists (select 1 from pg_inherits where pg_inherits.inhrelid = pg_class.oid)`.execute(db);
  const partitions: UsageLogPartition[] = [];
  for (const row of result.rows) {
    const month = monthOfPartitionName(row.name);
    if (month !== undefined) partitions.push({ name: row.name, from: month, to: addMonths(month, 1) });
  }
  return partitions.sort((left, right) => left.from - right.from);
}

/** The month start a `monthPartitionName` name stands for; undefined for any other name. */
function monthOfPartitionName(name: string): number | undefined {
  const parts = /^usage_logs_(\d{4})_(\d{2})$/.exec(name);
  if (!parts) return undefined;
  const month = Number(parts[2]);
  if (month < 1 || month > 12) return undefined;
  return Date.UTC(Number(parts[1]), month - 1, 1) / 1000;
}

/**
 * Drops a month table that is no partition (a detached month), with its rows and files. It locks that table alone,
 * which no request reads, so the usage log is open meanwhile. A table that is a partition is never dropped here
 * (`attached`); one another instance dropped first is `gone`; a lock not granted within `lockTimeoutMs` (someone
 * reading the table by its own name) is `busy`, and the table is found again by `listDetachedUsageLogPartitions`.
 */
export async function dropDetachedUsageLogPartition(
  db: Kysely<Database>,
  name: string,
  options: { lockTimeoutMs: number },
): Promise<"dropped" | "busy" | "gone" | "attached"> {
  try {
    return await db.transaction().execute(async (transaction) => {
      // The advisory lock orders this against other instances' drops of the same table and against months attached.
      await lockPartitionsOfThisSchema(transaction, options.lockTimeoutMs);
      const table = await sql<{ attached: boolean }>`
        select relispartition or exists (select 1 from pg_inherits where inhrelid = pg_class.oid) as attached
        from pg_class
        where oid = to_regclass(quote_ident(current_schema()) || '.' || ${name})`.execute(transaction);
      if (table.rows.length === 0) return "gone" as const;
      if (table.rows[0]!.attached) return "attached" as const;
      await sql`drop table ${sql.id(name)}`.execute(transaction);
      return "dropped" as const;
    });
  } catch (error) {
    if (isLockTimeout(error)) return "busy";
    throw error;
  }
}

/** Every change to this schema's month partitions is made under this lock, and waits for locks `lockTimeoutMs`. */
async function lockPartitionsOfThisSchema(transaction: Kysely<Database>, lockTimeoutMs: number): Promise<void> {
  await sql`select set_config('lock_timeout', ${`${lockTimeoutMs}ms`}, true)`.execute(transaction);
  await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.usage_logs partitions'))`.execute(transaction);
}

export function isLockTimeout(error: unknown): boolean {
  // 55P03 lock_not_available: lock_timeout ran out.
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "55P03";
}
