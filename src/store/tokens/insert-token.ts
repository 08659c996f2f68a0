import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { toTokenInsertRow } from "./insert-token-input.js";
import type { InsertTokenInput } from "./insert-token-input.js";
import { mapTokenRow } from "./map-token-row.js";
import type { TokenRecord } from "./token-record.js";

export type { InsertTokenInput } from "./insert-token-input.js";

export async function insertToken(db: Kysely<Database>, input: InsertTokenInput): Promise<TokenRecord> {
  const row = await db.insertInto("tokens").values(toTokenInsertRow(input)).returningAll().executeTakeFirstOrThrow();
  return mapTokenRow(row);
}
