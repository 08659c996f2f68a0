import type { Kysely, Migration } from "kysely";
import { sql } from "kysely";
import type { DatabaseDialect } from "../database-dialect.js";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

/** The SQLSTATE a ledger cycle raises when a deferred hold of its batch was not taken (see below). */
export const deferredHoldNotTakenCode = "LD001";

/**
 * `run_ledger_cycle` with deferred holds settled in the same cycle. A request whose hold was deferred (hold-
 * deferral.ts) went upstream first; alone, one statement takes its hold and settles it, but in a batch it went as a
 * hold and then, in a later batch, as a settlement: two items, two waits on the batch queue and two writes of its
 * ledger row on the hot key's batches, and the balances a deferral decides on were read only by lone statements, so a
 * loaded instance stopped deferring two seconds after its batches began.
 *
 * This form takes, beside the hold arrays, each hold's cost: null for a plain hold; for a deferred hold, the cost it
 * is settled at in this cycle, after the batch's holds (the order settlements, holds, deferred settlements is one an
 * instance could have sent them in, so every rule of the batch functions holds as it does for them). A deferred hold
 * that was not taken (a short balance, a repeated id) raises `LD001`, which rolls the whole statement back with the
 * usage rows written beside it, and the caller applies that batch's deferred holds alone (their lone statement writes
 * a usage row only when the hold was taken). It also answers, for each hold, the token's balance (when the token is
 * limited), the wallet's and whether the wallet is unlimited, as they are after the cycle: what a deferral decides on.
 *
 * The form of migration 0017 stays for instances of the version before, during a rolling upgrade.
 */
export function createDeferredHoldsInBatchesMigration(dialect: DatabaseDialect): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      if (dialect !== "postgres") return;
      await sql.raw(ledgerCycleWithDeferredHoldsSql).execute(db);
    },

    async down(db: AnyDatabase): Promise<void> {
      if (dialect !== "postgres") return;
      await sql
        .raw(
          `drop function if exists run_ledger_cycle(text[], bigint[], bigint[], bigint[], text[], bigint[], bigint[],
             bigint[], integer[], bigint[], bigint)`,
        )
        .execute(db);
    },
  };
}

/** The end of `run_ledger_cycle` (this form and 0022's): each hold's balances after the cycle, for deferral. */
export const ledgerCycleBalancesSql = `  if holding then
    select array_agg((select tokens.remain_quota from tokens where tokens.id = item.token_id and item.limited = 1)
                       order by item.position),
           array_agg((select users.quota from users where users.id = item.user_id) order by item.position),
           array_agg((select users.quota_unlimited from users where users.id = item.user_id) order by item.position)
      into token_balances, wallet_balances, wallets_unlimited
      from unnest(hold_token_ids, hold_user_ids, hold_token_limited)
           with ordinality as item(token_id, user_id, limited, position);
  else
    token_balances := '{}'::bigint[];
    wallet_balances := '{}'::bigint[];
    wallets_unlimited := '{}'::integer[];
  end if;
`;

export const ledgerCycleWithDeferredHoldsSql = `
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
  deferred_ids text[];
  deferred_token_ids bigint[];
  deferred_user_ids bigint[];
  deferred_costs bigint[];
begin
  -- Each batch function locks its own rows in the global order (tokens by id, then users by id); two in a row would
  -- lock users before the second one's tokens, so then every row of the cycle is locked first. A deferred hold's
  -- settlement touches its token even when the token is not limited.
  if (settling and holding) or deferring then
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
  held := case when holding then reserve_reservation_batch(hold_reservation_ids, hold_token_ids, hold_user_ids,
    hold_amounts, hold_token_limited, at_time) else '{}'::text[] end;
  if deferring then
    if exists (select 1 from unnest(held, hold_costs) as item(outcome, cost)
                 where item.cost is not null and item.outcome not in ('held', 'free')) then
      raise exception 'a deferred hold of this ledger cycle was not taken' using errcode = '${deferredHoldNotTakenCode}';
    end if;
    -- A deferred hold taken is settled by its id; one that was free (nothing held) only counts its cost as used.
    select array_agg(case when item.outcome = 'held' then item.id end order by item.position),
           array_agg(item.token_id order by item.position),
           array_agg(item.user_id order by item.position),
           array_agg(item.cost order by item.position)
      into deferred_ids, deferred_token_ids, deferred_user_ids, deferred_costs
      from unnest(held, hold_reservation_ids, hold_token_ids, hold_user_ids, hold_costs)
           with ordinality as item(outcome, id, token_id, user_id, cost, position)
      where item.cost is not null;
    perform settle_reservation_batch(deferred_ids, deferred_token_ids, deferred_user_ids, deferred_costs, at_time);
  end if;
${ledgerCycleBalancesSql}end $$;
`;
