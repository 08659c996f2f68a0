import type { Kysely, Migration } from "kysely";
import { sql } from "kysely";
import type { DatabaseDialect } from "../database-dialect.js";

// Migrations must not depend on the current Database interface, which will keep changing.
type AnyDatabase = Kysely<any>;

/**
 * Wallets: every user gets a balance (`quota`), what they spent (`used_quota`) and an unlimited flag, which is 1 for
 * every user that exists when this runs, so nothing changes for a deployment until an administrator sets a quota.
 * New accounts are created limited by the code that creates them. A reservation records which balances it holds.
 * The quota ledger keeps every change an administrator or a redeemed code made to a wallet; redemption codes are kept
 * by keyed hash only (a code is shown once, when created). The audit log keeps who changed what as an administrator.
 *
 * PostgreSQL gets one function, `reserve_token_and_wallet`: taking a token's and its owner's balances is two updates
 * that must both happen or neither, and a transaction of two statements would hold the token's row lock across a
 * round trip to the gateway. The function runs both (and the ledger row) in one call, token first, the order
 * settlement takes the rows in too, so the two never wait on each other.
 */
export function createUserWalletsMigration(dialect: DatabaseDialect): Migration {
  return {
    async up(db: AnyDatabase): Promise<void> {
      await db.schema
        .alterTable("users")
        .addColumn("quota", "bigint", (column) => column.notNull().defaultTo(0).check(sql`quota >= 0`))
        .execute();
      await db.schema
        .alterTable("users")
        .addColumn("used_quota", "bigint", (column) => column.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable("users")
        .addColumn("quota_unlimited", "integer", (column) => column.notNull().defaultTo(1))
        .execute();
      await db.schema
        .alterTable("users")
        .addColumn("allowed_groups", "text", (column) => column.notNull().defaultTo("[]"))
        .execute();
      await db.schema
        .alterTable("quota_reservations")
        .addColumn("token_held", "integer", (column) => column.notNull().defaultTo(1))
        .execute();
      await db.schema
        .alterTable("quota_reservations")
        .addColumn("wallet_held", "integer", (column) => column.notNull().defaultTo(0))
        .execute();

      const ledger = db.schema.createTable("quota_ledger");
      await (dialect === "sqlite"
        ? ledger.addColumn("id", "integer", (column) => column.primaryKey().autoIncrement())
        : ledger.addColumn("id", "bigint", (column) => column.primaryKey().generatedByDefaultAsIdentity())
      )
        .addColumn("user_id", "bigint", (column) => column.notNull())
        .addColumn("delta", "bigint", (column) => column.notNull())
        .addColumn("balance_after", "bigint", (column) => column.notNull())
        .addColumn("source", "text", (column) => column.notNull())
        .addColumn("reason", "text", (column) => column.notNull())
        .addColumn("actor_user_id", "bigint")
        .addColumn("redemption_code_id", "bigint")
        .addColumn("created_time", "bigint", (column) => column.notNull())
        .execute();
      await db.schema.createIndex("quota_ledger_user_id_index").on("quota_ledger").columns(["user_id", "id"]).execute();

      const codes = db.schema.createTable("redemption_codes");
      await (dialect === "sqlite"
        ? codes.addColumn("id", "integer", (column) => column.primaryKey().autoIncrement())
        : codes.addColumn("id", "bigint", (column) => column.primaryKey().generatedByDefaultAsIdentity())
      )
        .addColumn("code_hash", "text", (column) => column.notNull().unique())
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("quota", "bigint", (column) => column.notNull())
        .addColumn("status", "text", (column) => column.notNull().defaultTo("unused"))
        .addColumn("expires_time", "bigint", (column) => column.notNull().defaultTo(-1))
        .addColumn("created_by", "bigint", (column) => column.notNull())
        .addColumn("created_time", "bigint", (column) => column.notNull())
        .addColumn("redeemed_by", "bigint")
        .addColumn("redeemed_time", "bigint")
        .addCheckConstraint("redemption_codes_status_check", sql`status in ('unused', 'redeemed', 'disabled')`)
        .execute();

      const audit = db.schema.createTable("audit_log");
      await (dialect === "sqlite"
        ? audit.addColumn("id", "integer", (column) => column.primaryKey().autoIncrement())
        : audit.addColumn("id", "bigint", (column) => column.primaryKey().generatedByDefaultAsIdentity())
      )
        .addColumn("actor_user_id", "bigint")
        .addColumn("action", "text", (column) => column.notNull())
        .addColumn("target", "text", (column) => column.notNull())
        .addColumn("before_json", "text")
        .addColumn("after_json", "text")
        .addColumn("created_time", "bigint", (column) => column.notNull())
        .execute();

      if (dialect === "postgres") await sql.raw(reserveFunctionSql).execute(db);
    },

    async down(db: AnyDatabase): Promise<void> {
      if (dialect === "postgres") await sql`drop function if exists reserve_token_and_wallet`.execute(db);
      await db.schema.dropTable("audit_log").execute();
      await db.schema.dropTable("redemption_codes").execute();
      await db.schema.dropTable("quota_ledger").execute();
      await db.schema.alterTable("quota_reservations").dropColumn("wallet_held").execute();
      await db.schema.alterTable("quota_reservations").dropColumn("token_held").execute();
      for (const column of ["allowed_groups", "quota_unlimited", "used_quota", "quota"])
        await db.schema.alterTable("users").dropColumn(column).execute();
    },
  };
}

// Answers 'held' (both balances taken as asked, ledger row written), 'free' (nothing to hold: an unlimited token of an
// unlimited wallet; no row), 'token' or 'wallet' (that balance cannot cover the amount; nothing taken).
const reserveFunctionSql = `
create or replace function reserve_token_and_wallet(
  reservation_id text, for_token_id bigint, for_user_id bigint, amount bigint, token_limited integer,
  at_time bigint
) returns text language plpgsql as $$
declare
  wallet_unlimited integer;
  wallet_taken integer := 0;
begin
  if token_limited = 1 then
    update tokens set remain_quota = remain_quota - amount where id = for_token_id and remain_quota >= amount;
    if not found then return 'token'; end if;
  end if;
  update users set quota = quota - amount where id = for_user_id and quota_unlimited = 0 and quota >= amount;
  if found then
    wallet_taken := 1;
  else
    select quota_unlimited into wallet_unlimited from users where id = for_user_id;
    if wallet_unlimited is distinct from 1 then
      if token_limited = 1 then
        update tokens set remain_quota = remain_quota + amount where id = for_token_id;
      end if;
      return 'wallet';
    end if;
  end if;
  if token_limited = 0 and wallet_taken = 0 then return 'free'; end if;
  insert into quota_reservations
    (id, token_id, user_id, reserved, settled, actual, created_time, settled_time, token_held, wallet_held)
    values (reservation_id, for_token_id, for_user_id, amount, 0, null, at_time, null, token_limited, wallet_taken);
  return 'held';
end $$;
`;
