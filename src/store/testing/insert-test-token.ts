import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { insertToken } from "../tokens/insert-token.js";
import type { InsertTokenInput } from "../tokens/insert-token.js";
import type { TokenRecord } from "../tokens/token-record.js";

/** A token with a unique key hash, for tests that share one database per file. */
export function insertTestToken(
  db: Kysely<Database>,
  userId: number,
  overrides: Partial<InsertTokenInput> = {},
): Promise<TokenRecord> {
  return insertToken(db, {
    userId,
    name: "test token",
    keyHash: `hash-${randomUUID()}`,
    keyEncrypted: `encrypted-${randomUUID()}`,
    createdTime: 1_700_000_000,
    ...overrides,
  });
}
