import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { mapTokenRow } from "./map-token-row.js";
import type { TokenRecord } from "./token-record.js";

/** The user's tokens with an RPM or a TPM limit, newest first: the ones whose current minute the console shows. */
export async function listRateLimitedTokensForUser(db: Kysely<Database>, userId: number): Promise<TokenRecord[]> {
  const rows = await db
    .selectFrom("tokens")
    .selectAll()
    .where("user_id", "=", userId)
    .where((where) => where.or([where("rpm_limit", ">", 0), where("tpm_limit", ">", 0)]))
    .orderBy("id", "desc")
    .execute();
  return rows.map(mapTokenRow);
}
