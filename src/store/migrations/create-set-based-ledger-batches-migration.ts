import type { Kysely, Migration } from "kysely";
import { sql } from "kysely";
import type { DatabaseDialect } from "../database-dialect.js";
import {
  reserveBatchFunctionSql as itemByItemReserveSql,
  settleBatchFunctionSql as itemByItemSettleSql,
} from "./create-batched-ledger-functions-migration.js";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

/**
 * The batch functions of migration 0013 again, applying a whole batch with a few set-based statements whenever that
 * provably gives what applying its items one by one gives. Item by item, a batch of n holds on one key ran 3n
 * statements inside the function and wrote the key's token row and its owner's wallet row n times each (as many row
 * versions in one transaction); its settlements as many again. PostgreSQL spent most of a loaded instance's CPU a
 * request there (bench/measure-ledger-batch-cost.ts; docs/BENCHMARKS.md).
 *
 * When the set-based form is taken, and why it answers the same:
 * - Holds: the request ids are distinct, every token's balance covers the sum of the batch's holds on it and every
 *   limited wallet the sum of its holds (each row locked before the check). Then, in any order, each conditional
 *   update would have found its balance covering it, so every item is held; the rows are inserted in one statement
 *   (a request id used before answers 'duplicate' and takes nothing, as before) and each balance is taken once.
 * - Settlements: the reservation ids are distinct, and on every token and wallet the batch touches, the balance plus
 *   every negative refund (an overrun) of the batch stays at or above zero, and above it on a limited, enabled token.
 *   Then no step of the sequence goes below zero, nor reaches it on such a token, so no balance is clamped and no
 *   token turns exhausted on the way, and the sum of the refunds gives the balance the sequence gives. A reservation settled meanwhile by somebody else only drops out of the sums, which keeps the
 *   check true.
 * Otherwise — a short balance, an overrun that would clamp, a repeated id, a batch of one — the items go one by one
 * exactly as before, the same locks taken first in the same global order (tokens by id, then users by id).
 *
 * Every row is reached by its key, and the plans are made once per connection. The planner, left to itself, planned
 * each call's set-based statements afresh (which at a loaded gateway's batch of six to twelve requests cost more than
 * the writes they save), and chose by table statistics that lag the table: a sequential scan of the reservations from
 * a plan made while the table was new, or the whole partial index of unsettled reservations, which it believes
 * small but which keeps an entry for every reservation settled since the table's last vacuum (a settlement cannot be
 * a HOT update: the index's predicate changes) — thousands a batch on a busy key. So both functions run with
 * `plan_cache_mode = force_generic_plan` and without sequential and bitmap scans, hash and merge joins (a batch is at
 * most a few hundred rows, each found through a primary key), and the set-based statements write `settled + 0 = 0`,
 * which that partial index's predicate does not match.
 */
export function createSetBasedLedgerBatchesMigration(dialect: DatabaseDialect): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      if (dialect !== "postgres") return;
      await sql.raw(reserveBatchFunctionSql).execute(db);
      await sql.raw(settleBatchFunctionSql).execute(db);
    },

    async down(db: AnyDatabase): Promise<void> {
      if (dialect !== "postgres") return;
      await sql.raw(itemByItemReserveSql).execute(db);
      await sql.raw(itemByItemSettleSql).execute(db);
    },
  };
}

// Both functions' planner settings: plans made once per connection, every row reached through its key (see above).
export const keyedGenericPlans = `set plan_cache_mode = force_generic_plan
  set enable_seqscan = off set enable_bitmapscan = off set enable_hashjoin = off set enable_mergejoin = off`;

// Answers as in migration 0013: 'held', 'free', 'token', 'wallet' or 'duplicate' per item, in order.
const reserveBatchFunctionSql = `
create or replace function reserve_reservation_batch(
  reservation_ids text[], token_ids bigint[], user_ids bigint[], amounts bigint[], token_limited integer[],
  at_time bigint
) returns text[] language plpgsql
  ${keyedGenericPlans} as $$
declare
  outcomes text[] := '{}';
  wallet_unlimited integer;
  wallet_taken integer;
  item integer;
  item_count integer := coalesce(array_length(reservation_ids, 1), 0);
begin
  -- A hold alone (every hold of a quiet instance) takes its token's lock and then its wallet's with its own updates, in
  -- that order already; the up-front locks would be two more statements.
  if item_count > 1 then
    perform 1 from tokens where id in (
      select held.id from unnest(token_ids, token_limited) as held(id, limited) where held.limited = 1
    ) order by id for update;
    perform 1 from users where id = any(user_ids) order by id for update;
  end if;
  if item_count > 1
    and (select count(distinct batch_id) = item_count from unnest(reservation_ids) as batch_id)
    and not exists (
      select 1 from (
          select wanted.id, sum(wanted.amount) as total
            from unnest(token_ids, amounts, token_limited) as wanted(id, amount, limited)
            where wanted.limited = 1 group by wanted.id) as wanted
        left join tokens on tokens.id = wanted.id
        where not coalesce(tokens.remain_quota >= wanted.total, false))
    and not exists (
      select 1 from (
          select wanted.id, sum(wanted.amount) as total
            from unnest(user_ids, amounts) as wanted(id, amount) group by wanted.id) as wanted
        left join users on users.id = wanted.id
        where not coalesce(users.quota_unlimited = 1 or (users.quota_unlimited = 0 and users.quota >= wanted.total),
                           false))
  then
    with batch_item as (
      select batch_item.*, users.quota_unlimited = 0 as wallet_limited
        from unnest(reservation_ids, token_ids, user_ids, amounts, token_limited)
             with ordinality as batch_item(reservation_id, token_id, user_id, amount, limited, position)
        join users on users.id = batch_item.user_id),
    inserted as (
      insert into quota_reservations
        (id, token_id, user_id, reserved, settled, actual, created_time, settled_time, token_held, wallet_held)
        select reservation_id, token_id, user_id, amount, 0, null, at_time, null, limited,
               case when wallet_limited then 1 else 0 end
          from batch_item where limited = 1 or wallet_limited
        on conflict (id) do nothing
        returning id, token_id, user_id, reserved, token_held, wallet_held),
    tokens_taken as (
      update tokens set remain_quota = remain_quota - taken.total
        from (select token_id, sum(reserved) as total from inserted where token_held = 1 group by token_id) as taken
        where tokens.id = taken.token_id),
    wallets_taken as (
      update users set quota = quota - taken.total
        from (select user_id, sum(reserved) as total from inserted where wallet_held = 1 group by user_id) as taken
        where users.id = taken.user_id)
    select array_agg(case when not (batch_item.limited = 1 or batch_item.wallet_limited) then 'free'
                          when batch_item.reservation_id in (select inserted.id from inserted) then 'held'
                          else 'duplicate' end order by batch_item.position)
      into outcomes
      from batch_item;
    return outcomes;
  end if;
  for item in 1 .. item_count loop
    if token_limited[item] = 1 then
      update tokens set remain_quota = remain_quota - amounts[item]
        where id = token_ids[item] and remain_quota >= amounts[item];
      if not found then outcomes := outcomes || 'token'::text; continue; end if;
    end if;
    wallet_taken := 0;
    update users set quota = quota - amounts[item]
      where id = user_ids[item] and quota_unlimited = 0 and quota >= amounts[item];
    if found then
      wallet_taken := 1;
    else
      select quota_unlimited into wallet_unlimited from users where id = user_ids[item];
      if wallet_unlimited is distinct from 1 then
        if token_limited[item] = 1 then
          update tokens set remain_quota = remain_quota + amounts[item] where id = token_ids[item];
        end if;
        outcomes := outcomes || 'wallet'::text;
        continue;
      end if;
    end if;
    if token_limited[item] = 0 and wallet_taken = 0 then outcomes := outcomes || 'free'::text; continue; end if;
    insert into quota_reservations
      (id, token_id, user_id, reserved, settled, actual, created_time, settled_time, token_held, wallet_held)
      values (reservation_ids[item], token_ids[item], user_ids[item], amounts[item], 0, null, at_time, null,
              token_limited[item], wallet_taken)
      on conflict (id) do nothing;
    if not found then
      if token_limited[item] = 1 then
        update tokens set remain_quota = remain_quota + amounts[item] where id = token_ids[item];
      end if;
      if wallet_taken = 1 then
        update users set quota = quota + amounts[item] where id = user_ids[item];
      end if;
      outcomes := outcomes || 'duplicate'::text;
      continue;
    end if;
    outcomes := outcomes || 'held'::text;
  end loop;
  return outcomes;
end $$;
`;

// Answers as in migration 0013: true per item when this call settled it.
const settleBatchFunctionSql = `
create or replace function settle_reservation_batch(
  reservation_ids text[], token_ids bigint[], user_ids bigint[], actual_costs bigint[], at_time bigint
) returns boolean[] language plpgsql
  ${keyedGenericPlans} as $$
declare
  outcomes boolean[] := '{}';
  held record;
  token_refund bigint;
  wallet_refund bigint;
  item integer;
  item_count integer := coalesce(array_length(token_ids, 1), 0);
begin
  perform 1 from tokens where id = any(token_ids) order by id for update;
  perform 1 from users where id = any(user_ids) order by id for update;
  if item_count > 1
    and (select count(distinct batch_id) = count(batch_id) from unnest(reservation_ids) as batch_id)
    and not exists (
      with pending as (
        select reservation.token_id, reservation.user_id,
               case when reservation.token_held = 1 then least(reservation.reserved - batch_item.actual, 0)
                    else 0 end as token_overrun,
               case when reservation.wallet_held = 1 then least(reservation.reserved - batch_item.actual, 0)
                    else 0 end as wallet_overrun
          from unnest(reservation_ids, actual_costs) as batch_item(reservation_id, actual)
          join quota_reservations as reservation
            on reservation.id = batch_item.reservation_id and reservation.settled + 0 = 0)
      select 1 from (select pending.token_id, sum(token_overrun) as overrun from pending group by pending.token_id)
          as touched
        join tokens on tokens.id = touched.token_id
        where tokens.remain_quota + touched.overrun < 0
           or (tokens.remain_quota + touched.overrun = 0 and tokens.unlimited_quota = 0 and tokens.status = 1)
      union all
      select 1 from (select pending.user_id, sum(wallet_overrun) as overrun from pending group by pending.user_id)
          as touched
        join users on users.id = touched.user_id
        where users.quota + touched.overrun < 0)
  then
    with batch_item as (
      select * from unnest(reservation_ids, token_ids, user_ids, actual_costs)
        with ordinality as batch_item(reservation_id, token_id, user_id, actual, position)),
    marked as (
      update quota_reservations set settled = 1, actual = batch_item.actual, settled_time = at_time
        from batch_item
        where quota_reservations.id = batch_item.reservation_id and quota_reservations.settled + 0 = 0
        returning quota_reservations.id, quota_reservations.token_id, quota_reservations.user_id,
                  quota_reservations.reserved, quota_reservations.actual, quota_reservations.token_held,
                  quota_reservations.wallet_held),
    changes as (
      select marked.token_id, marked.user_id, marked.actual,
             case when marked.token_held = 1 then marked.reserved - marked.actual else 0 end as token_change,
             case when marked.wallet_held = 1 then marked.reserved - marked.actual else 0 end as wallet_change
        from marked
      union all
      select batch_item.token_id, batch_item.user_id, batch_item.actual, 0, 0
        from batch_item where batch_item.reservation_id is null),
    tokens_settled as (
      update tokens set remain_quota = remain_quota + total.change, used_quota = used_quota + total.used
        from (select changes.token_id, sum(token_change) as change, sum(changes.actual) as used
                from changes group by changes.token_id) as total
        where tokens.id = total.token_id),
    wallets_settled as (
      update users set quota = quota + total.change, used_quota = used_quota + total.used
        from (select changes.user_id, sum(wallet_change) as change, sum(changes.actual) as used
                from changes group by changes.user_id) as total
        where users.id = total.user_id)
    select array_agg(batch_item.reservation_id is null or batch_item.reservation_id in (select marked.id from marked)
                     order by batch_item.position)
      into outcomes
      from batch_item;
    return outcomes;
  end if;
  for item in 1 .. item_count loop
    if reservation_ids[item] is null then
      update tokens set used_quota = used_quota + actual_costs[item] where id = token_ids[item];
      update users set used_quota = used_quota + actual_costs[item] where id = user_ids[item];
      outcomes := outcomes || true;
      continue;
    end if;
    update quota_reservations set settled = 1, actual = actual_costs[item], settled_time = at_time
      where id = reservation_ids[item] and settled = 0
      returning token_id, user_id, reserved, token_held, wallet_held into held;
    if not found then outcomes := outcomes || false; continue; end if;
    token_refund := case when held.token_held = 1 then held.reserved - actual_costs[item] else 0 end;
    wallet_refund := case when held.wallet_held = 1 then held.reserved - actual_costs[item] else 0 end;
    update tokens set
      remain_quota = greatest(remain_quota + token_refund, 0),
      used_quota = used_quota + actual_costs[item],
      status = case when greatest(remain_quota + token_refund, 0) = 0 and unlimited_quota = 0 and status = 1
                    then 4 else status end
      where id = held.token_id;
    update users set
      quota = greatest(quota + wallet_refund, 0),
      used_quota = used_quota + actual_costs[item]
      where id = held.user_id;
    outcomes := outcomes || true;
  end loop;
  return outcomes;
end $$;
`;
