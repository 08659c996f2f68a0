import type { Kysely, Migration } from "kysely";
import { sql } from "kysely";
import type { DatabaseDialect } from "../database-dialect.js";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

/**
 * PostgreSQL gets one function that settles a batch of requests and takes the holds of another in the same call, so
 * an instance's quota ledger sends one statement (one round trip, one commit) per cycle instead of one for its holds
 * and one for its settlements (src/store/quota/create-postgres-quota-ledger.ts). On a hot key the two used to run one
 * after the other on the key's row lock anyway; together they take it once.
 *
 * It first locks every row either part will touch, in the global order of the batch functions (tokens by id, then
 * users by id), so it can wait on any other batch but never in a cycle; then runs `settle_reservation_batch` and
 * `reserve_reservation_batch` (migration 0013), whose own locks it already holds. Settlements go first, so what they
 * give back is there for the holds after them. Each part answers as its function does; the call commits both or
 * neither.
 */
export function createLedgerCycleFunctionMigration(dialect: DatabaseDialect): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      if (dialect !== "postgres") return;
      await sql.raw(ledgerCycleFunctionSql).execute(db);
    },

    async down(db: AnyDatabase): Promise<void> {
      if (dialect !== "postgres") return;
      await sql`drop function if exists run_ledger_cycle`.execute(db);
    },
  };
}

export const ledgerCycleFunctionSql = `
create or replace function run_ledger_cycle(
  settle_reservation_ids text[], settle_token_ids bigint[], settle_user_ids bigint[], settle_actual_costs bigint[],
  hold_reservation_ids text[], hold_token_ids bigint[], hold_user_ids bigint[], hold_amounts bigint[],
  hold_token_limited integer[], at_time bigint,
  out settled boolean[], out held text[]
) language plpgsql as $$
begin
  perform 1 from tokens where id in (
    select unnest(settle_token_ids)
    union
    select taken.id from unnest(hold_token_ids, hold_token_limited) as taken(id, limited) where taken.limited = 1
  ) order by id for update;
  perform 1 from users where id in (select unnest(settle_user_ids) union select unnest(hold_user_ids))
    order by id for update;
  settled := settle_reservation_batch(settle_reservation_ids, settle_token_ids, settle_user_ids, settle_actual_costs,
    at_time);
  held := reserve_reservation_batch(hold_reservation_ids, hold_token_ids, hold_user_ids, hold_amounts,
    hold_token_limited, at_time);
end $$;
`;
