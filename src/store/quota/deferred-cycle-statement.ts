import { type Kysely, sql } from "kysely";
import type { Database } from "../database-schema.js";
import { createStatementTemplate, parameterFrom, type StatementTemplate } from "../postgres/statement-template.js";
import {
  type UsageRowsShape,
  type UsageRowsValues,
  usageRowsShapeKey,
  usageRowsShapeOf,
  usageRowsValues,
  usageRowWritesOfShape,
} from "./ledger-usage-rows.js";
import type { NewUsageLog } from "../usage-logs/insert-usage-logs.js";
import { type BalancesSeen, balancesPerHold } from "./lone-ledger-statements.js";
import type { PostgresReserveInput, PostgresSettleInput } from "./postgres-ledger-items.js";

/**
 * A batch of deferred holds only — nearly every batch of a busy instance — as one plain statement instead of a call of
 * `run_ledger_cycle`, when it meets the conditions under which `hold_and_settle_reservation_batch` (migration 0022)
 * writes each hold already settled: the ids distinct, and on every token and wallet of the batch the balance less
 * the holds plus the overruns not below zero (above it on a limited, enabled token). It checks them on the rows it
 * has locked, in the functions' order (the tokens by id, then the users by id), and only then writes what that
 * function writes: the ledger rows settled, each balance less the costs held from it, each `used_quota` plus the
 * costs, the usage rows and their rollups. Otherwise it writes nothing and answers why: the caller sends the batch
 * through `run_ledger_cycle` as before. The call's fixed cost — three nested PL/pgSQL calls, their planner settings
 * set and restored, a statement each for the checks, the locks, the writes and the balances — was about a third of
 * PostgreSQL's CPU a statement on one instance (bench/profile-findings.md, "A batch of deferred holds as one
 * statement"); deferred-cycle-statement.test.ts compares both on random worlds.
 *
 * It never waits for a lock: a row another transaction holds (another instance's batch on the same key) is skipped,
 * and the batch then does not fit and answers `contended` (as it does for a row that is gone, a token deleted
 * meanwhile, which the function then refuses as before). A statement that waited inside itself re-evaluated each
 * of its updates against the row the other transaction left, and two instances on one key spent half again as much
 * of PostgreSQL's CPU a request as through the function, whose locks are statements of their own.
 *
 * A repeated id is found by the insert itself, without `on conflict`: the primary key's violation (after waiting for
 * an uncommitted row of the same id) rolls the statement back, as the function's `LD001` does.
 */
export interface DeferredCycleStatement {
  run(holds: readonly DeferredHold[], now: number): Promise<DeferredCycleAnswers | "contended" | "not met">;
}

/** The constraint whose violation means a deferred hold's id was used before: nothing of the batch was applied. */
export const reservationIdConstraint = "quota_reservations_pkey";

/** A deferred hold: the hold and the settlement it is taken with. */
export interface DeferredHold {
  input: PostgresReserveInput;
  settlement: Pick<PostgresSettleInput, "actual" | "usageRow">;
}

/** Per hold, in order: its outcome and its token's and wallet's balances after the statement. */
export interface DeferredCycleAnswers {
  held: ("held" | "free")[];
  balances: BalancesSeen[];
}

interface DeferredCycleValues extends UsageRowsValues {
  holds: readonly DeferredHold[];
  now: number;
}

type DeferredCycleRow = {
  applied: boolean;
  locked: boolean;
  held: ("held" | "free")[] | null;
  token_balances: (string | null)[] | null;
  wallet_balances: (string | null)[] | null;
  wallets_unlimited: (number | null)[] | null;
};

export function createDeferredCycleStatement(db: Kysely<Database>): DeferredCycleStatement {
  const templates = new Map<string, StatementTemplate<DeferredCycleValues, DeferredCycleRow>>();
  const noRows: UsageRowsValues = { usageRows: [], rollups: [], modelRollups: [] };
  return {
    async run(holds, now) {
      const rows: NewUsageLog[] = [];
      for (const hold of holds) if (hold.settlement.usageRow) rows.push(hold.settlement.usageRow);
      const values: DeferredCycleValues = { holds, now, ...(rows.length === 0 ? noRows : usageRowsValues(rows)) };
      const shape = rows.length === 0 ? undefined : usageRowsShapeOf(values);
      const key = shape === undefined ? "no rows" : usageRowsShapeKey(shape);
      let template = templates.get(key);
      if (template === undefined) {
        template = createStatementTemplate(db, deferredCycleStatement(shape));
        templates.set(key, template);
      }
      const row = (await template.execute(values)).rows[0]!;
      if (!row.applied) return row.locked ? "not met" : "contended";
      const held = row.held ?? [];
      return { held, balances: balancesPerHold(row, held.length) };
    },
  };
}

function deferredCycleStatement(shape: UsageRowsShape | undefined) {
  const held = (read: (hold: DeferredHold) => unknown) =>
    parameterFrom<DeferredCycleValues>((values) => values.holds.map(read));
  const now = sql`${parameterFrom<DeferredCycleValues>((values) => values.now)}::bigint`;
  const fits = sql`(select fits from batch_fits)`;
  const usageRows = shape === undefined ? sql`` : sql`${usageRowWritesOfShape<DeferredCycleValues>(shape, fits)},`;
  // The checks are those of hold_and_settle_reservation_batch, read from the rows locked here: in one statement a plain
  // read of `tokens` would see the statement's snapshot. A row locked by another transaction is skipped rather than
  // waited for, and then the batch does not fit.
  return sql<DeferredCycleRow>`
    with batch_item as materialized (
      select * from unnest(
          ${held((hold) => hold.input.requestId)}::text[], ${held((hold) => hold.input.tokenId)}::bigint[],
          ${held((hold) => hold.input.userId)}::bigint[], ${held((hold) => hold.input.amount)}::bigint[],
          ${held((hold) => (hold.input.tokenLimited ? 1 : 0))}::integer[],
          ${held((hold) => hold.settlement.actual)}::bigint[])
        with ordinality as batch_item(reservation_id, token_id, user_id, amount, limited, cost, position)),
    locked_tokens as materialized (
      select id, remain_quota, unlimited_quota, status from tokens
        where id in (select token_id from batch_item) order by id for update skip locked),
    locked_users as materialized (
      select id, quota, quota_unlimited from users
        where id in (select user_id from batch_item) and (select count(*) from locked_tokens) >= 0
        order by id for update skip locked),
    batch_locked as materialized (
      select (select count(*) from locked_tokens) = (select count(distinct token_id) from batch_item)
             and (select count(*) from locked_users) = (select count(distinct user_id) from batch_item) as locked),
    batch_fits as materialized (
      select (select locked from batch_locked)
        and (select count(distinct reservation_id) = count(*) from batch_item)
        and not exists (
          select 1 from (
              select token_id,
                     sum(case when limited = 1 then amount else 0 end) as held,
                     sum(case when limited = 1 then least(amount - cost, 0) else 0 end) as overrun
                from batch_item group by token_id) as wanted
            left join locked_tokens on locked_tokens.id = wanted.token_id
            where not coalesce(
              locked_tokens.remain_quota - wanted.held + wanted.overrun > 0
              or (locked_tokens.remain_quota - wanted.held + wanted.overrun = 0
                  and not (locked_tokens.unlimited_quota = 0 and locked_tokens.status = 1)),
              false))
        and not exists (
          select 1 from (
              select user_id, sum(amount) as held, sum(least(amount - cost, 0)) as overrun
                from batch_item group by user_id) as wanted
            left join locked_users on locked_users.id = wanted.user_id
            where not coalesce(
              (locked_users.quota_unlimited = 0 and locked_users.quota - wanted.held + wanted.overrun >= 0)
              or (locked_users.quota_unlimited = 1 and locked_users.quota >= 0),
              false)) as fits),
    fitting_item as materialized (
      select batch_item.*, locked_users.quota_unlimited = 0 as wallet_limited
        from batch_item join locked_users on locked_users.id = batch_item.user_id
        where ${fits}),
    ${usageRows}
    inserted as (
      insert into quota_reservations
        (id, token_id, user_id, reserved, settled, actual, created_time, settled_time, token_held, wallet_held)
        select reservation_id, token_id, user_id, amount, 1, cost, ${now}, ${now}, limited,
               case when wallet_limited then 1 else 0 end
          from fitting_item where limited = 1 or wallet_limited),
    tokens_settled as (
      update tokens set remain_quota = remain_quota - total.taken, used_quota = used_quota + total.used
        from (select token_id, sum(case when limited = 1 then cost else 0 end) as taken, sum(cost) as used
                from fitting_item group by token_id) as total
        where tokens.id = total.token_id
        returning tokens.id, tokens.remain_quota),
    wallets_settled as (
      update users set quota = quota - total.taken, used_quota = used_quota + total.used
        from (select user_id, sum(case when wallet_limited then cost else 0 end) as taken, sum(cost) as used
                from fitting_item group by user_id) as total
        where users.id = total.user_id
        returning users.id, users.quota, users.quota_unlimited)
    select ${fits} as applied,
           (select locked from batch_locked) as locked,
           array_agg(case when limited = 1 or wallet_limited then 'held' else 'free' end order by position) as held,
           array_agg((select remain_quota from tokens_settled where tokens_settled.id = fitting_item.token_id
                        and fitting_item.limited = 1) order by position) as token_balances,
           array_agg((select quota from wallets_settled where wallets_settled.id = fitting_item.user_id)
                     order by position) as wallet_balances,
           array_agg((select quota_unlimited from wallets_settled where wallets_settled.id = fitting_item.user_id)
                     order by position) as wallets_unlimited
      from fitting_item`;
}
