import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { openDatabase } from "../../src/store/open-database.js";
import { createPostgresQuotaLedger } from "../../src/store/quota/create-postgres-quota-ledger.js";
import { createSqliteQuotaLedger } from "../../src/store/quota/create-sqlite-quota-ledger.js";
import { createSqliteUsageLogInserter } from "../../src/store/usage-logs/create-sqlite-usage-log-inserter.js";
import type { NewUsageLog } from "../../src/store/usage-logs/usage-log-record.js";

// What the hand-written floor bills with (hand-written-floor-process.ts): the gateway's own ledger of either mode,
// called as the gateway's billing calls it, and nothing of the gateway around it. SQLite: the hold and the settlement
// applied in process and committed in the commit window with the usage row. PostgreSQL: the ledger's batches, a hold
// deferred to its settlement when the balances it read cover it (hold-deferral.ts), and the settlement's statement
// with the usage row, durable before the answer.

export interface FloorToken {
  id: number;
  user_id: number;
  name: string;
  status: number;
  expired_time: number;
}

/** A request's hold: settles it at `actual` with its usage row, committed before it resolves. */
export type FloorSettle = (actual: number, usageRow: NewUsageLog) => Promise<void>;

export interface FloorStore {
  /** The token of a key's hash, read from the database at most every 2 s (as the gateway's token cache does). */
  findToken(keyHash: string): Promise<FloorToken | undefined>;
  hold(token: FloorToken, requestId: string, amount: number, createdTime: number): Promise<FloorSettle>;
  close(): Promise<void>;
}

const tokenCacheMs = 2_000;

/**
 * The floor's store: on PostgreSQL when `postgresUrl` is given (several floors may share it: the first of a key
 * creates its token and the token's user, named after the key, and the others of that key find them), else on a
 * SQLite file of its own.
 */
export async function openFloorStore(keyHash: string, postgresUrl: string | undefined): Promise<FloorStore> {
  return postgresUrl === undefined ? openSqliteFloorStore(keyHash) : openPostgresFloorStore(keyHash, postgresUrl);
}

function cachedTokens(read: (keyHash: string) => Promise<FloorToken | undefined>) {
  const tokens = new Map<string, { row: Promise<FloorToken | undefined>; readAt: number }>();
  return (keyHash: string) => {
    const now = Date.now();
    let cached = tokens.get(keyHash);
    if (cached === undefined || now - cached.readAt > tokenCacheMs) {
      cached = { row: read(keyHash), readAt: now };
      tokens.set(keyHash, cached);
    }
    return cached.row;
  };
}

async function openSqliteFloorStore(keyHash: string): Promise<FloorStore> {
  const dataFolder = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), "floor-bench-"));
  const database = await openDatabase(`sqlite:${path.join(dataFolder, "gateway.db")}`);
  const connection = database.sqliteConnection!;
  const commitWindow = database.sqliteCommitWindow!;
  const createdTime = Math.floor(Date.now() / 1000);
  connection
    .prepare("insert into users (username, password_hash, created_time) values ('floor', 'x', ?)")
    .run(createdTime);
  connection
    .prepare(
      "insert into tokens (user_id, name, key_hash, key_encrypted, remain_quota, created_time) values (1, 'floor', ?, 'x', ?, ?)",
    )
    .run(keyHash, 1e15, createdTime);
  const ledger = createSqliteQuotaLedger(connection, commitWindow);
  const insertUsage = createSqliteUsageLogInserter(connection);
  const findToken = connection.prepare("select id, user_id, name, status, expired_time from tokens where key_hash = ?");
  return {
    findToken: cachedTokens(async (hash) => {
      commitWindow.applyDeferred();
      return findToken.get(hash) as FloorToken | undefined;
    }),
    async hold(token, requestId, amount, createdTime) {
      const outcome = await ledger.reserve({
        requestId,
        tokenId: token.id,
        userId: token.user_id,
        amount,
        createdTime,
      });
      if (outcome !== "held") throw new Error("quota");
      return async (actual, usageRow) => {
        const settled = ledger.settle({ requestId, actual, settledTime: createdTime });
        commitWindow.defer(() => insertUsage(usageRow));
        await settled;
      };
    },
    async close() {
      commitWindow.commitNow();
      await database.close();
      fs.rmSync(dataFolder, { recursive: true, force: true });
    },
  };
}

async function openPostgresFloorStore(keyHash: string, postgresUrl: string): Promise<FloorStore> {
  const database = await openDatabase(postgresUrl);
  const { db } = database;
  const createdTime = Math.floor(Date.now() / 1000);
  const username = `floor-${keyHash.slice(0, 12)}`;
  await sql`insert into users (username, password_hash, created_time) values (${username}, 'x', ${createdTime})
            on conflict (username) do nothing`.execute(db);
  await sql`insert into tokens (user_id, name, key_hash, key_encrypted, remain_quota, created_time)
            select id, 'floor', ${keyHash}, 'x', ${1e15}, ${createdTime} from users where username = ${username}
              and not exists (select 1 from tokens where key_hash = ${keyHash})`.execute(db);
  const ledger = createPostgresQuotaLedger(db, { now: () => Math.floor(Date.now() / 1000) });
  return {
    findToken: cachedTokens(async (hash) => {
      // The pool reads bigint columns as numbers (open-database.ts), so the row is a FloorToken as it comes.
      const found = await sql<FloorToken>`select id, user_id, name, status, expired_time from tokens
                                          where key_hash = ${hash}`.execute(db);
      return found.rows[0];
    }),
    async hold(token, requestId, amount) {
      const input = { requestId, tokenId: token.id, userId: token.user_id, amount, tokenLimited: true };
      if (ledger.deferHold(input))
        return async (actual, usageRow) => {
          const outcome = await ledger.settleDeferred(input, { actual, usageRow });
          if (outcome !== "held") throw new Error("quota");
        };
      if ((await ledger.reserve(input)) !== "held") throw new Error("quota");
      return async (actual, usageRow) => {
        await ledger.settle({ reservationId: requestId, tokenId: token.id, userId: token.user_id, actual, usageRow });
      };
    },
    close: () => database.close(),
  };
}
