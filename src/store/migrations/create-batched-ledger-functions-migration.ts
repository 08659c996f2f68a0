import type { Kysely, Migration } from "kysely";
import { sql } from "kysely";
import type { DatabaseDialect } from "../database-dialect.js";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

/**
 * PostgreSQL gets two functions that take and settle many requests' holds in one call, so the requests of one busy
 * key (and of one user's wallet) take that row's lock once per batch instead of twice per request
 * (src/store/quota/create-postgres-quota-ledger.ts sends them). Each call is one statement and one commit; no row
 * lock outlives it, and the gateway is never asked anything while a lock is held.
 *
 * Both functions first lock every row the batch will touch in one global order, tokens by id and then users by id,
 * so two batches (of one instance or of several) can only wait on each other, never in a cycle. Inside, each item is
 * the same conditional update a single request made before: a hold is taken only if the balance covers it, in the
 * order the items came, so N requests against a balance for K let exactly K through across any number of batches
 * and instances. An item that cannot be written (a request id used before) gives back what it took and answers so,
 * without failing the rest of its batch.
 *
 * SQLite needs neither: its ledger already batches in its commit window (create-sqlite-quota-ledger.ts).
 */
export function createBatchedLedgerFunctionsMigration(dialect: DatabaseDialect): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      if (dialect !== "postgres") return;
      await sql.raw(reserveBatchFunctionSql).execute(db);
      await sql.raw(settleBatchFunctionSql).execute(db);
    },

    async down(db: AnyDatabase): Promise<void> {
      if (dialect !== "postgres") return;
      await sql`drop function if exists settle_reservation_batch`.execute(db);
      await sql`drop function if exists reserve_reservation_batch`.execute(db);
    },
  };
}

// One answer per item, in order: 'held', 'free' (an unlimited token of an unlimited wallet: nothing taken, no row),
// 'token' or 'wallet' (that balance cannot cover it; nothing taken), 'duplicate' (the request id has a row already).
export const reserveBatchFunctionSql = `
create or replace function reserve_reservation_batch(
  reservation_ids text[], token_ids bigint[], user_ids bigint[], amounts bigint[], token_limited integer[],
  at_time bigint
) returns text[] language plpgsql as $$
declare
  outcomes text[] := '{}';
  wallet_unlimited integer;
  wallet_taken integer;
  item integer;
begin
  perform 1 from tokens where id in (
    select held.id from unnest(token_ids, token_limited) as held(id, limited) where held.limited = 1
  ) order by id for update;
  perform 1 from users where id = any(user_ids) order by id for update;
  for item in 1 .. coalesce(array_length(reservation_ids, 1), 0) loop
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

// One answer per item, in order: true when this call settled it. An item with a null reservation id held nothing (an
// unlimited token of an unlimited wallet): only the two used_quota counters grow. Otherwise the reservation's row is
// the exactly-once guard (marked settled only if it is not yet), and the refund (reserved − actual) goes back to each
// balance it held; an overrun a balance cannot cover takes it to 0, never below, and a limited, enabled token whose
// balance reaches 0 becomes 4 (quota exhausted), as apply-token-settlement.ts does.
export const settleBatchFunctionSql = `
create or replace function settle_reservation_batch(
  reservation_ids text[], token_ids bigint[], user_ids bigint[], actual_costs bigint[], at_time bigint
) returns boolean[] language plpgsql as $$
declare
  outcomes boolean[] := '{}';
  held record;
  token_refund bigint;
  wallet_refund bigint;
  item integer;
begin
  perform 1 from tokens where id = any(token_ids) order by id for update;
  perform 1 from users where id = any(user_ids) order by id for update;
  for item in 1 .. coalesce(array_length(token_ids, 1), 0) loop
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
