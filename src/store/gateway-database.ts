import type { Kysely } from 'kysely';
import type { Database } from './database-schema.js';
import type { DatabaseDialect } from './database-dialect.js';

export interface GatewayDatabase {
  db: Kysely<Database>;
  dialect: DatabaseDialect;
  close(): Promise<void>;
}
