import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";
import type { Database } from "./database-schema.js";
import type { CommitWindow } from "./quota/create-commit-window.js";
import type { DatabaseDialect } from "./database-dialect.js";

export interface GatewayDatabase {
  db: Kysely<Database>;
  dialect: DatabaseDialect;
  /**
   * SQLite only: the raw connection behind `db`, for the few hot statements that run as one synchronous
   * transaction (src/store/quota/create-sqlite-quota-ledger.ts). Everything else goes through `db`.
   */
  sqliteConnection?: BetterSqlite3.Database;
  /** SQLite only: the ledger's group commit on `sqliteConnection` (src/store/quota/create-commit-window.ts). */
  sqliteCommitWindow?: CommitWindow;
  close(): Promise<void>;
}
