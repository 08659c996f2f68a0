import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import { insertUser } from "../users/insert-user.js";
import type { InsertUserInput } from "../users/insert-user.js";
import type { UserRecord } from "../users/user-record.js";

/** A user with a unique name, for tests that share one database per file. */
export function insertTestUser(db: Kysely<Database>, overrides: Partial<InsertUserInput> = {}): Promise<UserRecord> {
  return insertUser(db, {
    username: `user-${randomUUID()}`,
    passwordHash: "not-a-real-hash",
    createdTime: 1_700_000_000,
    ...overrides,
  });
}
