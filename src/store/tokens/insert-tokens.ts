import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { toTokenInsertRow } from "./insert-token-input.js";
import type { InsertTokenInput } from "./insert-token-input.js";
import { mapTokenRow } from "./map-token-row.js";
import type { TokenRecord } from "./token-record.js";

/** Batch creation in one statement, so either every token is created or none is. Returned in id order. */
export async function insertTokens(db: Kysely<Database>, inputs: readonly InsertTokenInput[]): Promise<TokenRecord[]> {
  if (inputs.length === 0) {
    return [];
  }
  const rows = await db.insertInto("tokens").values(inputs.map(toTokenInsertRow)).returningAll().execute();
  return rows.map(mapTokenRow).sort((left, right) => left.id - right.id);
}
