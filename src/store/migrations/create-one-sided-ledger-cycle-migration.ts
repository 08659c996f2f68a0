import type { Kysely, Migration } from "kysely";
import { sql } from "kysely";
import type { DatabaseDialect } from "../database-dialect.js";
import { ledgerCycleFunctionSql } from "./create-ledger-cycle-function-migration.js";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

/**
 * `run_ledger_cycle` again, doing only the half a batch has. An instance with one request at a time sends a batch of
 * one hold and later a batch of one settlement; the function of migration 0014 still ran its two up-front lock
 * queries and called the empty half, which took about half of such a call's time in PostgreSQL (pgbench, one
 * client: a one-hold call 1.0–1.2 ms before, 0.6–0.8 ms after). The up-front locks are only needed when both halves
 * run: each batch function locks its own rows in the global order (tokens by id, then users by id) by itself, but two
 * in a row would lock users before the second half's tokens. The answers are the same: an empty half answers an empty
 * array, as before.
 */
export function createOneSidedLedgerCycleMigration(dialect: DatabaseDialect): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      if (dialect !== "postgres") return;
      await sql.raw(oneSidedLedgerCycleFunctionSql).execute(db);
    },

    async down(db: AnyDatabase): Promise<void> {
      if (dialect !== "postgres") return;
      await sql.raw(ledgerCycleFunctionSql).execute(db);
    },
  };
}

const oneSidedLedgerCycleFunctionSql = `
create or replace function run_ledger_cycle(
  settle_reservation_ids text[], settle_token_ids bigint[], settle_user_ids bigint[], settle_actual_costs bigint[],
  hold_reservation_ids text[], hold_token_ids bigint[], hold_user_ids bigint[], hold_amounts bigint[],
  hold_token_limited integer[], at_time bigint,
  out settled boolean[], out held text[]
) language plpgsql as $$
declare
  settling boolean := coalesce(array_length(settle_reservation_ids, 1), 0) > 0;
  holding boolean := coalesce(array_length(hold_reservation_ids, 1), 0) > 0;
begin
  if settling and holding then
    perform 1 from tokens where id in (
      select unnest(settle_token_ids)
      union
      select taken.id from unnest(hold_token_ids, hold_token_limited) as taken(id, limited) where taken.limited = 1
    ) order by id for update;
    perform 1 from users where id in (select unnest(settle_user_ids) union select unnest(hold_user_ids))
      order by id for update;
  end if;
  settled := case when settling then settle_reservation_batch(settle_reservation_ids, settle_token_ids,
    settle_user_ids, settle_actual_costs, at_time) else '{}'::boolean[] end;
  held := case when holding then reserve_reservation_batch(hold_reservation_ids, hold_token_ids, hold_user_ids,
    hold_amounts, hold_token_limited, at_time) else '{}'::text[] end;
end $$;
`;
