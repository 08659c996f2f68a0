import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Database } from "../database-schema.js";
import { createStatementTemplate, type TemplateParameter, templateValues } from "../postgres/statement-template.js";
import type { NewUsageLog } from "../usage-logs/insert-usage-logs.js";
import {
  loneUsageRowShape,
  loneUsageRowValues,
  type UsageRowsValues,
  usageRowWritesOfShape,
} from "./ledger-usage-rows.js";
import type { PostgresReserveInput, PostgresSettleInput } from "./postgres-ledger-items.js";
import type { ReserveOutcome } from "./reserve-outcome.js";

/**
 * A batch of one item — every batch of an instance with one request at a time — as one plain statement instead of a
 * call of `run_ledger_cycle`. The PL/pgSQL functions cost a lone item more than its writes: two nested calls, their
 * planner settings set and restored, and a statement each for the locks, the updates and the row (bench/
 * profile-findings.md: the functions were a third of PostgreSQL's time a request at one connection). Each statement
 * here does what the function does for one item, step for step, and takes the same locks in the same global order
 * (the token row, then the wallet row), so it can run beside the batches of other instances:
 * lone-ledger-statements.test.ts compares both on random worlds.
 *
 * A locking sub-select that reads `(select count(*) from …) >= 0` of the one before it is always true: it is there so
 * the earlier row is locked first (PostgreSQL evaluates that sub-select before it locks the later row).
 *
 * Their texts never change, only their values, so each is a statement template (statement-template.ts), compiled
 * once per ledger: with and without the usage row, five in all.
 */
export interface LoneLedgerStatements {
  hold(input: PostgresReserveInput, now: number): Promise<LoneHoldAnswer>;
  holdAndSettle(
    input: PostgresReserveInput,
    actual: number,
    now: number,
    usageRow: NewUsageLog | undefined,
  ): Promise<LoneHoldAnswer>;
  settle(input: PostgresSettleInput, now: number): Promise<{ settled: boolean } & BalancesSeen>;
}

/** What a lone hold answers: its decision (`duplicate` when its row existed already) and the balances it read. */
type LoneHoldAnswer = { outcome: ReserveOutcome | "duplicate" } & BalancesSeen;

/** A template's placeholders: `${values.amount}` in its text is the `amount` of each run. */
type Placeholders<Values> = { readonly [Field in keyof Values]: TemplateParameter<Values> };

interface HoldValues {
  requestId: string;
  tokenId: number;
  userId: number;
  amount: number;
  /** 1 when the token's own balance is held from, else 0. */
  limited: number;
  now: number;
}
type HoldAndSettleValues = HoldValues & { cost: number };
interface SettleValues {
  reservationId: string | null;
  tokenId: number;
  userId: number;
  actual: number;
  now: number;
}

export function createLoneLedgerStatements(db: Kysely<Database>): LoneLedgerStatements {
  const hold = createStatementTemplate(db, holdAloneStatement(templateValues<HoldValues>()));
  const holdAndSettle = createStatementTemplate(db, holdAndSettleAloneStatement(templateValues<HoldAndSettleValues>()));
  const holdAndSettleLogged = createStatementTemplate(
    db,
    holdAndSettleAloneStatement<HoldAndSettleValues & UsageRowsValues>(templateValues(), (onlyWhen) =>
      usageRowWritesOfShape(loneUsageRowShape, onlyWhen),
    ),
  );
  const settle = createStatementTemplate(db, settleAloneStatement(templateValues<SettleValues>()));
  const settleLogged = createStatementTemplate(
    db,
    settleAloneStatement<SettleValues & UsageRowsValues>(templateValues(), usageRowWritesOfShape(loneUsageRowShape)),
  );
  const holdValues = (input: PostgresReserveInput, now: number): HoldValues => ({
    requestId: input.requestId,
    tokenId: input.tokenId,
    userId: input.userId,
    amount: input.amount,
    limited: input.tokenLimited ? 1 : 0,
    now,
  });
  const firstRow = <Row>(answer: Promise<{ rows: Row[] }>) => answer.then((result) => result.rows[0]!);
  return {
    hold: (input, now) => firstRow(hold.execute(holdValues(input, now))),
    holdAndSettle(input, actual, now, usageRow) {
      const values = { ...holdValues(input, now), cost: actual };
      return firstRow(
        usageRow === undefined
          ? holdAndSettle.execute(values)
          : holdAndSettleLogged.execute({ ...values, ...loneUsageRowValues(usageRow) }),
      );
    },
    settle(input, now) {
      const { reservationId, tokenId, userId, actual, usageRow } = input;
      const values = { reservationId, tokenId, userId, actual, now };
      return firstRow(
        usageRow === undefined
          ? settle.execute(values)
          : settleLogged.execute({ ...values, ...loneUsageRowValues(usageRow) }),
      );
    },
  };
}

/**
 * A lone hold, as `reserve_reservation_batch` applies one item: the token's balance (when the token is limited), then
 * the wallet's (when it is limited), both or neither, and the reservation row. It answers the same outcome; nothing is
 * taken unless the row is written. Its commit does not wait for the WAL flush, as for any batch of holds alone.
 */
function holdAloneStatement(values: Placeholders<HoldValues>): RawBuilder<LoneHoldAnswer> {
  const amount = sql`${values.amount}::bigint`;
  return sql`
    with ${holdDecision(values)},
    inserted as (
      insert into quota_reservations
        (id, token_id, user_id, reserved, settled, actual, created_time, settled_time, token_held, wallet_held)
        select ${values.requestId}::text, ${values.tokenId}::bigint, ${values.userId}::bigint, ${amount}, 0, null,
               ${values.now}::bigint, null, ${values.limited}::integer,
               case when wallet_row.quota_unlimited = 0 then 1 else 0 end
          from decision, wallet_row where decision.outcome = 'held'
        on conflict (id) do nothing
        returning token_held, wallet_held),
    tokens_taken as (
      update tokens set remain_quota = remain_quota - ${amount}
        where id = ${values.tokenId} and exists (select 1 from inserted where token_held = 1)),
    wallets_taken as (
      update users set quota = quota - ${amount}
        where id = ${values.userId} and exists (select 1 from inserted where wallet_held = 1))
    select ${holdAnswer}
      from decision, (select set_config('synchronous_commit', 'off', true)) as without_flush_wait`;
}

/** What each balance read before the statement changed it: the token's (null when it is not limited) and the wallet's. */
export interface BalancesSeen {
  token_balance: string | null;
  wallet_balance: string | null;
  wallet_unlimited: number | null;
}

/** A batch statement's balances, one array per column (null for none), as each of its `count` holds saw them. */
export function balancesPerHold(
  row: {
    token_balances: (string | null)[] | null;
    wallet_balances: (string | null)[] | null;
    wallets_unlimited: (number | null)[] | null;
  },
  count: number,
): BalancesSeen[] {
  return Array.from({ length: count }, (_, index) => ({
    token_balance: row.token_balances?.[index] ?? null,
    wallet_balance: row.wallet_balances?.[index] ?? null,
    wallet_unlimited: row.wallets_unlimited?.[index] ?? null,
  }));
}

/**
 * The hold's locks and decision, as `reserve_reservation_batch` makes them for one item: the token's row (when the
 * token is limited), then the wallet's, and which balance, if either, cannot cover the amount.
 */
function holdDecision<Values extends HoldValues>(values: Placeholders<Values>) {
  const limited = sql`${values.limited}::integer`;
  const amount = sql`${values.amount}::bigint`;
  return sql`token_row as materialized (
      select remain_quota from tokens where id = ${values.tokenId} and ${limited} = 1 for update),
    wallet_row as materialized (
      select quota, quota_unlimited from users
        where id = ${values.userId} and (select count(*) from token_row) >= 0 for update),
    decision as materialized (
      select case
          when ${limited} = 1 and not exists (select 1 from token_row where remain_quota >= ${amount})
            then 'token'
          when not exists (select 1 from wallet_row
                            where quota_unlimited = 1 or (quota_unlimited = 0 and quota >= ${amount}))
            then 'wallet'
          when ${limited} = 0 and exists (select 1 from wallet_row where quota_unlimited = 1) then 'free'
          else 'held' end as outcome)`;
}

const balancesSeen = sql`(select remain_quota from token_row) as token_balance,
           (select quota from wallet_row) as wallet_balance,
           (select quota_unlimited from wallet_row) as wallet_unlimited`;

/** A hold's answer: its decision, `duplicate` when the row for a decided hold existed already, and the balances. */
const holdAnswer = sql`case when decision.outcome = 'held' and not exists (select 1 from inserted) then 'duplicate'
                else decision.outcome end as outcome,
           ${balancesSeen}`;

/**
 * A hold and its settlement as one statement, for a request that was sent upstream without a hold because the
 * balances it last saw covered it many times over (create-postgres-quota-ledger.ts, "deferred holds"). It decides as
 * the lone hold does, on the same locks in the same order, and only when the hold would have been taken does it
 * apply what the hold and then the settlement would have left: the reservation row, written already settled, both
 * balances moved by the cost (clamped at zero, an exhausted token marked so), the cost counted as used, and the usage
 * row with its rollups. A hold that would have been refused changes nothing and writes no row: the caller withholds
 * the answer. Its commit waits for the WAL flush, as every settlement's does.
 */
function holdAndSettleAloneStatement<Values extends HoldAndSettleValues>(
  values: Placeholders<Values>,
  usageRows?: (appliedOnly: RawBuilder<unknown>) => RawBuilder<unknown>,
): RawBuilder<LoneHoldAnswer> {
  const amount = sql`${values.amount}::bigint`;
  const cost = sql`${values.cost}::bigint`;
  const applied = sql`exists (select 1 from applied)`;
  return sql`
    with ${holdDecision(values)},
    inserted as (
      insert into quota_reservations
        (id, token_id, user_id, reserved, settled, actual, created_time, settled_time, token_held, wallet_held)
        select ${values.requestId}::text, ${values.tokenId}::bigint, ${values.userId}::bigint, ${amount}, 1, ${cost},
               ${values.now}::bigint, ${values.now}::bigint, ${values.limited}::integer,
               case when wallet_row.quota_unlimited = 0 then 1 else 0 end
          from decision, wallet_row where decision.outcome = 'held'
        on conflict (id) do nothing
        returning token_held, wallet_held),
    applied as materialized (
      select coalesce((select token_held from inserted), 0) as token_held,
             coalesce((select wallet_held from inserted), 0) as wallet_held
        from decision
        where decision.outcome = 'free' or exists (select 1 from inserted)),
    tokens_settled as (
      update tokens set
          remain_quota = case when applied.token_held = 1 then greatest(remain_quota - ${cost}, 0)
                              else remain_quota end,
          used_quota = used_quota + ${cost},
          status = case when applied.token_held = 1 and greatest(remain_quota - ${cost}, 0) = 0
                              and unlimited_quota = 0 and status = 1 then 4
                        else status end
        from applied where tokens.id = ${values.tokenId}),
    wallets_settled as (
      update users set
          quota = case when applied.wallet_held = 1 then greatest(quota - ${cost}, 0) else quota end,
          used_quota = used_quota + ${cost}
        from applied where users.id = ${values.userId})
    ${usageRows === undefined ? sql`` : sql`, ${usageRows(applied)}`}
    select ${holdAnswer}
      from decision`;
}

/**
 * A lone settlement, as `settle_reservation_batch` applies one item: the token's and the wallet's locks, then the
 * reservation marked settled once, the difference between hold and cost given back (or taken, clamped at zero, an
 * exhausted token marked so) and the cost counted as used; a request that held nothing (`reservationId` null) only
 * counts its cost. `usageRows` are the writable CTEs of the usage row and its rollups, committed with it. The
 * balances it answers are those it locked, before its own change.
 */
function settleAloneStatement<Values extends SettleValues>(
  values: Placeholders<Values>,
  usageRows?: RawBuilder<unknown>,
): RawBuilder<{ settled: boolean } & BalancesSeen> {
  const actual = sql`${values.actual}::bigint`;
  const reservationId = sql`${values.reservationId}::text`;
  return sql`
    with ${usageRows === undefined ? sql`` : sql`${usageRows},`}
    locked_token as materialized (
      select remain_quota, unlimited_quota from tokens where id = ${values.tokenId} for update),
    locked_user as materialized (
      select quota, quota_unlimited from users
        where id = ${values.userId} and (select count(*) from locked_token) >= 0 for update),
    marked as (
      update quota_reservations set settled = 1, actual = ${actual}, settled_time = ${values.now}::bigint
        where id = ${reservationId} and settled + 0 = 0 and (select count(*) from locked_user) >= 0
        returning token_id, user_id, reserved, token_held, wallet_held),
    change as materialized (
      select marked.token_id, marked.user_id, true as held,
             case when marked.token_held = 1 then marked.reserved - ${actual} else 0 end as token_refund,
             case when marked.wallet_held = 1 then marked.reserved - ${actual} else 0 end as wallet_refund
        from marked
      union all
      select ${values.tokenId}::bigint, ${values.userId}::bigint, false, 0, 0 where ${reservationId} is null),
    tokens_settled as (
      update tokens set
          remain_quota = case when change.held then greatest(remain_quota + change.token_refund, 0)
                              else remain_quota end,
          used_quota = used_quota + ${actual},
          status = case when change.held and greatest(remain_quota + change.token_refund, 0) = 0
                              and unlimited_quota = 0 and status = 1 then 4
                        else status end
        from change where tokens.id = change.token_id),
    wallets_settled as (
      update users set
          quota = case when change.held then greatest(quota + change.wallet_refund, 0) else quota end,
          used_quota = used_quota + ${actual}
        from change where users.id = change.user_id)
    select (select count(*) from locked_user) >= 0
           and (${reservationId} is null or exists (select 1 from marked)) as settled,
           (select remain_quota from locked_token where unlimited_quota = 0) as token_balance,
           (select quota from locked_user) as wallet_balance,
           (select quota_unlimited from locked_user) as wallet_unlimited`;
}
