import type { Kysely } from 'kysely';
import type { Database } from '../database-schema.js';
import { mapTokenRow } from './map-token-row.js';
import type { TokenRecord } from './token-record.js';

export async function findTokenByKeyHash(db: Kysely<Database>, keyHash: string): Promise<TokenRecord | null> {
  const row = await db.selectFrom('tokens').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
  return row === undefined ? null : mapTokenRow(row);
}
