import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

export interface InsertRedemptionCodesInput {
  /** keyed hashes of the new codes, one row each */
  codeHashes: string[];
  name: string;
  quota: number;
  /** Unix seconds; -1 never expires */
  expiresTime: number;
  createdBy: number;
  createdTime: number;
}

/** A batch of unused codes in one statement. */
export async function insertRedemptionCodes(db: Kysely<Database>, input: InsertRedemptionCodesInput): Promise<void> {
  await db
    .insertInto("redemption_codes")
    .values(
      input.codeHashes.map((codeHash) => ({
        code_hash: codeHash,
        name: input.name,
        quota: input.quota,
        status: "unused" as const,
        expires_time: input.expiresTime,
        created_by: input.createdBy,
        created_time: input.createdTime,
        redeemed_by: null,
        redeemed_time: null,
      })),
    )
    .execute();
}
