import type { Kysely, Migration } from "kysely";
import { sql } from "kysely";
import type { DatabaseDialect } from "../database-dialect.js";
import {
  deferredHoldNotTakenCode,
  ledgerCycleBalancesSql,
  ledgerCycleWithDeferredHoldsSql,
} from "./create-deferred-holds-in-batches-migration.js";
import { keyedGenericPlans } from "./create-set-based-ledger-batches-migration.js";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

/**
 * A ledger cycle's deferred holds written once, already settled. Migration 0021 took a batch's deferred holds with
 * `reserve_reservation_batch` and then settled them with `settle_reservation_batch`: each ledger row inserted as held
 * and updated as settled in the same statement (an update that cannot be heap-only, since the partial index of
 * unsettled reservations changes), and the key's token and wallet rows written twice. On a busy instance, where
 * nearly every request is deferred, that second pass was about a quarter of PostgreSQL's time in a cycle
 * (bench/profile-findings.md, "The two aims left").
 *
 * `hold_and_settle_reservation_batch` applies a batch of deferred holds, each at its hold's amount and then settled at
 * its cost, in a few set-based statements whenever that provably leaves what the two batch functions leave:
 * - the ids are distinct and none was used before (the rows are inserted with `on conflict do nothing`, and a count
 *   short of the batch raises);
 * - on every token of the batch, the balance less the holds on it, plus every negative refund (an overrun) of their
 *   settlements, stays at or above zero, and above it on a limited, enabled token;
 * - on every wallet, the same for a limited wallet; an unlimited one (nothing held from it) is not below zero.
 * Then every hold finds its balance covering it (the holds' sum does, the overruns being at most zero), and no step
 * of the settlements that follow reaches zero or below, so nothing is clamped and no token turns exhausted: each
 * balance ends at what it was less the costs held from it, each `used_quota` grows by the costs, and each ledger row
 * is what the settlement would have left (settled, its cost, both times the cycle's). Otherwise the batch goes through
 * the two functions as before. Either way a deferred hold that is not taken (a short balance, a repeated id) raises
 * `LD001`, which rolls the whole statement back; the caller then applies the deferred holds alone.
 *
 * `run_ledger_cycle` keeps its arguments and answers, so instances of the version before run it unchanged during a
 * rolling upgrade; it now applies a batch's plain holds first, then its deferred holds with the function above (an
 * order the items could have come in, so every rule of the batch functions holds for it), and locks every row up
 * front only when more than one batch function runs, as before.
 */
export function createDeferredHoldsWrittenSettledMigration(dialect: DatabaseDialect): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      if (dialect !== "postgres") return;
      await sql.raw(holdAndSettleBatchFunctionSql).execute(db);
      await sql.raw(ledgerCycleSql).execute(db);
    },

    async down(db: AnyDatabase): Promise<void> {
      if (dialect !== "postgres") return;
      await sql.raw(ledgerCycleWithDeferredHoldsSql).execute(db);
      await sql
        .raw(
          `drop function if exists hold_and_settle_reservation_batch(text[], bigint[], bigint[], bigint[], integer[],
             bigint[], bigint)`,
        )
        .execute(db);
    },
  };
}

// Answers 'held' or 'free' per item, in order, or raises LD001.
const holdAndSettleBatchFunctionSql = `
create or replace function hold_and_settle_reservation_batch(
  reservation_ids text[], token_ids bigint[], user_ids bigint[], amounts bigint[], token_limited integer[],
  costs bigint[], at_time bigint
) returns text[] language plpgsql
  ${keyedGenericPlans} as $$
declare
  outcomes text[];
  all_written boolean;
  item_count integer := coalesce(array_length(reservation_ids, 1), 0);
begin
  if item_count = 0 then return '{}'::text[]; end if;
  -- The settlements touch every token of the batch (its used quota), limited or not.
  perform 1 from tokens where id = any(token_ids) order by id for update;
  perform 1 from users where id = any(user_ids) order by id for update;
  if (select count(distinct batch_id) = item_count from unnest(reservation_ids) as batch_id)
    and not exists (
      select 1 from (
          select wanted.id,
                 sum(case when wanted.limited = 1 then wanted.amount else 0 end) as held,
                 sum(case when wanted.limited = 1 then least(wanted.amount - wanted.cost, 0) else 0 end) as overrun
            from unnest(token_ids, amounts, costs, token_limited) as wanted(id, amount, cost, limited)
            group by wanted.id) as wanted
        left join tokens on tokens.id = wanted.id
        where not coalesce(
          tokens.remain_quota - wanted.held + wanted.overrun > 0
          or (tokens.remain_quota - wanted.held + wanted.overrun = 0
              and not (tokens.unlimited_quota = 0 and tokens.status = 1)),
          false))
    and not exists (
      select 1 from (
          select wanted.id, sum(wanted.amount) as held, sum(least(wanted.amount - wanted.cost, 0)) as overrun
            from unnest(user_ids, amounts, costs) as wanted(id, amount, cost)
            group by wanted.id) as wanted
        left join users on users.id = wanted.id
        where not coalesce(
          (users.quota_unlimited = 0 and users.quota - wanted.held + wanted.overrun >= 0)
          or (users.quota_unlimited = 1 and users.quota >= 0),
          false))
  then
    with batch_item as (
      select batch_item.*, users.quota_unlimited = 0 as wallet_limited
        from unnest(reservation_ids, token_ids, user_ids, amounts, token_limited, costs)
             with ordinality as batch_item(reservation_id, token_id, user_id, amount, limited, cost, position)
        join users on users.id = batch_item.user_id),
    inserted as (
      insert into quota_reservations
        (id, token_id, user_id, reserved, settled, actual, created_time, settled_time, token_held, wallet_held)
        select reservation_id, token_id, user_id, amount, 1, cost, at_time, at_time, limited,
               case when wallet_limited then 1 else 0 end
          from batch_item where limited = 1 or wallet_limited
        on conflict (id) do nothing
        returning id),
    tokens_settled as (
      update tokens set remain_quota = remain_quota - total.taken, used_quota = used_quota + total.used
        from (select token_id, sum(case when limited = 1 then cost else 0 end) as taken, sum(cost) as used
                from batch_item group by token_id) as total
        where tokens.id = total.token_id),
    wallets_settled as (
      update users set quota = quota - total.taken, used_quota = used_quota + total.used
        from (select user_id, sum(case when wallet_limited then cost else 0 end) as taken, sum(cost) as used
                from batch_item group by user_id) as total
        where users.id = total.user_id)
    select (select count(*) from inserted) = count(*) filter (where limited = 1 or wallet_limited),
           array_agg(case when limited = 1 or wallet_limited then 'held' else 'free' end order by position)
      into all_written, outcomes
      from batch_item;
    if not all_written then
      raise exception 'a deferred hold of this ledger cycle was not taken' using errcode = '${deferredHoldNotTakenCode}';
    end if;
    return outcomes;
  end if;
  outcomes := reserve_reservation_batch(reservation_ids, token_ids, user_ids, amounts, token_limited, at_time);
  if exists (select 1 from unnest(outcomes) as outcome where outcome not in ('held', 'free')) then
    raise exception 'a deferred hold of this ledger cycle was not taken' using errcode = '${deferredHoldNotTakenCode}';
  end if;
  -- A deferred hold taken is settled by its id; one that was free (nothing held) only counts its cost as used.
  perform settle_reservation_batch(
    array(select case when item.outcome = 'held' then item.id end
            from unnest(outcomes, reservation_ids) with ordinality as item(outcome, id, position)
            order by item.position),
    token_ids, user_ids, costs, at_time);
  return outcomes;
end $$;
`;

const ledgerCycleSql = `
create or replace function run_ledger_cycle(
  settle_reservation_ids text[], settle_token_ids bigint[], settle_user_ids bigint[], settle_actual_costs bigint[],
  hold_reservation_ids text[], hold_token_ids bigint[], hold_user_ids bigint[], hold_amounts bigint[],
  hold_token_limited integer[], hold_costs bigint[], at_time bigint,
  out settled boolean[], out held text[],
  out token_balances bigint[], out wallet_balances bigint[], out wallets_unlimited integer[]
) language plpgsql as $$
declare
  settling boolean := coalesce(array_length(settle_reservation_ids, 1), 0) > 0;
  holding boolean := coalesce(array_length(hold_reservation_ids, 1), 0) > 0;
  deferring boolean := exists (select 1 from unnest(hold_costs) as cost where cost is not null);
  plain_holding boolean := exists (select 1 from unnest(hold_costs) as cost where cost is null);
  plain_ids text[];
  plain_token_ids bigint[];
  plain_user_ids bigint[];
  plain_amounts bigint[];
  plain_limited integer[];
  plain_outcomes text[];
  deferred_ids text[];
  deferred_token_ids bigint[];
  deferred_user_ids bigint[];
  deferred_amounts bigint[];
  deferred_limited integer[];
  deferred_costs bigint[];
  deferred_outcomes text[];
begin
  -- Each batch function locks its own rows in the global order (tokens by id, then users by id); two in a row would
  -- lock users before the second one's tokens, so then every row of the cycle is locked first. A deferred hold's
  -- settlement touches its token even when the token is not limited.
  if (settling and holding) or (deferring and plain_holding) then
    perform 1 from tokens where id in (
      select unnest(settle_token_ids)
      union
      select taken.id from unnest(hold_token_ids, hold_token_limited, hold_costs) as taken(id, limited, cost)
        where taken.limited = 1 or taken.cost is not null
    ) order by id for update;
    perform 1 from users where id in (select unnest(settle_user_ids) union select unnest(hold_user_ids))
      order by id for update;
  end if;
  settled := case when settling then settle_reservation_batch(settle_reservation_ids, settle_token_ids,
    settle_user_ids, settle_actual_costs, at_time) else '{}'::boolean[] end;
  if not deferring then
    held := case when holding then reserve_reservation_batch(hold_reservation_ids, hold_token_ids, hold_user_ids,
      hold_amounts, hold_token_limited, at_time) else '{}'::text[] end;
  elsif not plain_holding then
    held := hold_and_settle_reservation_batch(hold_reservation_ids, hold_token_ids, hold_user_ids, hold_amounts,
      hold_token_limited, hold_costs, at_time);
  else
    -- The plain holds first, then the deferred ones, each answer put back in its item's place.
    select array_agg(item.id order by item.position) filter (where item.cost is null),
           array_agg(item.token_id order by item.position) filter (where item.cost is null),
           array_agg(item.user_id order by item.position) filter (where item.cost is null),
           array_agg(item.amount order by item.position) filter (where item.cost is null),
           array_agg(item.limited order by item.position) filter (where item.cost is null),
           array_agg(item.id order by item.position) filter (where item.cost is not null),
           array_agg(item.token_id order by item.position) filter (where item.cost is not null),
           array_agg(item.user_id order by item.position) filter (where item.cost is not null),
           array_agg(item.amount order by item.position) filter (where item.cost is not null),
           array_agg(item.limited order by item.position) filter (where item.cost is not null),
           array_agg(item.cost order by item.position) filter (where item.cost is not null)
      into plain_ids, plain_token_ids, plain_user_ids, plain_amounts, plain_limited,
           deferred_ids, deferred_token_ids, deferred_user_ids, deferred_amounts, deferred_limited, deferred_costs
      from unnest(hold_reservation_ids, hold_token_ids, hold_user_ids, hold_amounts, hold_token_limited, hold_costs)
           with ordinality as item(id, token_id, user_id, amount, limited, cost, position);
    plain_outcomes := reserve_reservation_batch(plain_ids, plain_token_ids, plain_user_ids, plain_amounts,
      plain_limited, at_time);
    deferred_outcomes := hold_and_settle_reservation_batch(deferred_ids, deferred_token_ids, deferred_user_ids,
      deferred_amounts, deferred_limited, deferred_costs, at_time);
    select array_agg(case when item.cost is null then plain_outcomes[item.rank] else deferred_outcomes[item.rank] end
                     order by item.position)
      into held
      from (select cost, position, row_number() over (partition by cost is null order by position) as rank
              from unnest(hold_costs) with ordinality as item(cost, position)) as item;
  end if;
${ledgerCycleBalancesSql}end $$;
`;
