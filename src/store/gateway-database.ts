import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from './database-schema.js';
import type { DatabaseDialect } from './database-dialect.js';

export interface GatewayDatabase {
  db: Kysely<Database>;
  dialect: DatabaseDialect;
  /**
   * SQLite only: the raw connection behind `db`, for the few hot statements that run as one synchronous
   * transaction (src/store/quota/create-sqlite-quota-ledger.ts). Everything else goes through `db`.
   */
  sqliteConnection?: BetterSqlite3.Database;
  close(): Promise<void>;
}
