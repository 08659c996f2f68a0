import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";

/** Replaces the password hash of the user with this username. Returns false when there is no such user. */
export async function setUserPassword(db: Kysely<Database>, username: string, passwordHash: string): Promise<boolean> {
  const result = await db
    .updateTable("users")
    .set({ password_hash: passwordHash })
    .where("username", "=", username)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
