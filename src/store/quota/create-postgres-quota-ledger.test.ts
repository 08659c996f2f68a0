import { randomUUID } from "node:crypto";
import { type KyselyPlugin, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { insertTestToken } from "../testing/insert-test-token.js";
import { insertTestUser } from "../testing/insert-test-user.js";
import { openTestDatabases } from "../testing/open-test-databases.js";
import type { NewUsageLog } from "../usage-logs/insert-usage-logs.js";
import { readRollupsAndRowSums } from "../../../test/support/compare-rollups-with-rows.js";
import { createPostgresQuotaLedger } from "./create-postgres-quota-ledger.js";

const postgres = (await openTestDatabases()).find((entry) => entry.name === "postgres")!.database;

/** The ledger's database with every statement it sends counted, and every statement it compiles. */
function countingStatements() {
  const counted = { statements: 0, compiled: 0 };
  // Counted as they answer: a statement template (statement-template.ts) is compiled, and so transformed, only once.
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      counted.compiled += 1;
      return args.node;
    },
    transformResult(args) {
      counted.statements += 1;
      return Promise.resolve(args.result);
    },
  };
  return { db: postgres.db.withPlugin(plugin), counted };
}

/** A hold of the limited token `token` from its owner's wallet, under a new request id. */
const holdOf = (token: { id: number; userId: number }) => (amount: number) => ({
  requestId: randomUUID(),
  tokenId: token.id,
  userId: token.userId,
  amount,
  tokenLimited: true,
});

describe("the PostgreSQL quota ledger", () => {
  // On one key the batches serialise on its row lock: a second batch out would only split the queue into more, smaller
  // statements (and two instances would double that), so by default one batch of each kind is out per instance.
  it("sends one hold batch at a time by default: 20 holds arriving together on one key go as 2 statements", async () => {
    const user = await insertTestUser(postgres.db, { quota: 1_000 });
    const token = await insertTestToken(postgres.db, user.id, { remainQuota: 1_000 });
    const { db, counted } = countingStatements();
    const ledger = createPostgresQuotaLedger(db, { now: () => 1_700_000_000 });
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () =>
        ledger.reserve({ requestId: randomUUID(), tokenId: token.id, userId: user.id, amount: 10, tokenLimited: true }),
      ),
    );
    expect(outcomes.every((outcome) => outcome === "held")).toBe(true);
    // The first alone (nothing was out), then everything that queued while it ran.
    expect(counted.statements).toBe(2);
  });

  // Holds and settlements share one queue: an instance's ledger sends one statement a cycle, not one of each kind.
  it("settles and holds in one statement, the settlements first, so a refund in the batch covers a hold after it", async () => {
    const user = await insertTestUser(postgres.db);
    const token = await insertTestToken(postgres.db, user.id, { remainQuota: 100 });
    const { db, counted } = countingStatements();
    const ledger = createPostgresQuotaLedger(db, { now: () => 1_700_000_000 });
    const hold = (requestId: string, amount: number) =>
      ledger.reserve({ requestId, tokenId: token.id, userId: user.id, amount, tokenLimited: true });
    const first = randomUUID();
    expect(await hold(first, 60)).toBe("held");
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The 10 goes alone; the settlement of the 60 (refunding it all) and the hold of 90 queue meanwhile and go together.
    const [second, settled, third] = await Promise.all([
      hold(randomUUID(), 10),
      ledger.settle({ reservationId: first, tokenId: token.id, userId: user.id, actual: 0 }),
      hold(randomUUID(), 90),
    ]);
    expect([second, settled, third]).toEqual(["held", true, "held"]);
    expect(counted.statements).toBe(3);
    const row = await postgres.db
      .selectFrom("tokens")
      .select(["remain_quota", "used_quota"])
      .where("id", "=", token.id)
      .executeTakeFirstOrThrow();
    expect([Number(row.remain_quota), Number(row.used_quota)]).toEqual([0, 0]);
  });

  // A hold's commit need not wait for its WAL flush (the settlement after it does, and the log is flushed in order);
  // a settlement's must, since the answer goes out after it. A trigger records each write's commit mode.
  it("commits a batch of holds without waiting for the flush, and a settlement synchronously", async () => {
    const user = await insertTestUser(postgres.db);
    const token = await insertTestToken(postgres.db, user.id, { remainQuota: 100 });
    await sql`create table commit_modes (operation text not null, mode text not null)`.execute(postgres.db);
    await sql`create function record_commit_mode() returns trigger language plpgsql as $$
      begin
        insert into commit_modes values (tg_op, current_setting('synchronous_commit'));
        return new;
      end $$`.execute(postgres.db);
    await sql`create trigger record_commit_mode after insert or update on quota_reservations
      for each row execute function record_commit_mode()`.execute(postgres.db);
    try {
      const ledger = createPostgresQuotaLedger(postgres.db, { now: () => 1_700_000_000 });
      const requestId = randomUUID();
      expect(
        await ledger.reserve({ requestId, tokenId: token.id, userId: user.id, amount: 60, tokenLimited: true }),
      ).toBe("held");
      expect(await ledger.settle({ reservationId: requestId, tokenId: token.id, userId: user.id, actual: 40 })).toBe(
        true,
      );
      const modes = await sql<{ operation: string; mode: string }>`select operation, mode from commit_modes`.execute(
        postgres.db,
      );
      expect(modes.rows).toEqual([
        { operation: "INSERT", mode: "off" },
        { operation: "UPDATE", mode: "on" },
      ]);
    } finally {
      await sql`drop trigger record_commit_mode on quota_reservations`.execute(postgres.db);
      await sql`drop function record_commit_mode()`.execute(postgres.db);
      await sql`drop table commit_modes`.execute(postgres.db);
    }
  });
  // Lone statements lock the token row and then the wallet row, as every batch does, so an instance sending lone items
  // runs beside another sending batches on the same key and wallet without a deadlock (PostgreSQL would abort one
  // statement of such a cycle), and the totals come out exact.
  it("runs lone items of one instance beside batches of another on one key without a deadlock, exactly", async () => {
    const user = await insertTestUser(postgres.db, { quota: 1_000_000_000 });
    const token = await insertTestToken(postgres.db, user.id, { remainQuota: 1_000_000_000 });
    const busy = createPostgresQuotaLedger(postgres.db, { now: () => 1_700_000_000 });
    const quiet = createPostgresQuotaLedger(postgres.db, { now: () => 1_700_000_000 });
    let spent = 0;
    const requests = async (ledger: typeof busy, count: number, seed: number) => {
      for (let index = 0; index < count; index += 1) {
        const requestId = randomUUID();
        const held = await ledger.reserve({
          requestId,
          tokenId: token.id,
          userId: user.id,
          amount: 100,
          tokenLimited: true,
        });
        expect(held).toBe("held");
        // From nothing to half again the hold: refunds and overruns.
        const actual = (index * 37 + seed * 11) % 151;
        spent += actual;
        expect(await ledger.settle({ reservationId: requestId, tokenId: token.id, userId: user.id, actual })).toBe(
          true,
        );
      }
    };
    // Eight callers on one instance (its batches carry several items), one on the other (every item alone).
    await Promise.all([...Array.from({ length: 8 }, (_, seed) => requests(busy, 40, seed)), requests(quiet, 150, 99)]);
    const tokenRow = await postgres.db
      .selectFrom("tokens")
      .select(["remain_quota", "used_quota"])
      .where("id", "=", token.id)
      .executeTakeFirstOrThrow();
    const walletRow = await postgres.db
      .selectFrom("users")
      .select(["quota", "used_quota"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect([Number(tokenRow.remain_quota), Number(tokenRow.used_quota)]).toEqual([1_000_000_000 - spent, spent]);
    expect([Number(walletRow.quota), Number(walletRow.used_quota)]).toEqual([1_000_000_000 - spent, spent]);
  });

  // A deferred hold is one statement alone (hold and settlement); in a batch it goes as a hold, then its settlement.
  // Either way it leaves what a hold and its settlement leave, and only a lone hold's balances let one be deferred.
  it("defers holds only on balances it read lately, and settles deferred holds alone and in batches exactly", async () => {
    const user = await insertTestUser(postgres.db, { quota: 1_000_000 });
    const token = await insertTestToken(postgres.db, user.id, { remainQuota: 100_000 });
    const { db, counted } = countingStatements();
    const ledger = createPostgresQuotaLedger(db, { now: () => 1_700_000_000 });
    const hold = holdOf(token);
    expect(ledger.deferHold(hold(10))).toBe(false);
    const first = hold(100);
    expect(await ledger.reserve(first)).toBe("held");
    // 99,900 left on the token as read: a hold of 999 is covered a hundred times over, one of 1,000 is not.
    expect(ledger.deferHold(hold(1_000))).toBe(false);
    const alone = hold(999);
    expect(ledger.deferHold(alone)).toBe(true);
    counted.statements = 0;
    expect(await ledger.settleDeferred(alone, { actual: 400 })).toBe("held");
    expect(counted.statements).toBe(1);
    // Ten together, queued behind the statement before (its slot frees just after its answer): one batch of their
    // holds, then one of their settlements.
    const together = Array.from({ length: 10 }, () => hold(50));
    for (const each of together) expect(ledger.deferHold(each)).toBe(true);
    counted.statements = 0;
    const outcomes = await Promise.all(together.map((each) => ledger.settleDeferred(each, { actual: 30 })));
    expect(outcomes).toEqual(Array.from({ length: 10 }, () => "held"));
    expect(counted.statements).toBe(2);
    await ledger.settle({ reservationId: first.requestId, tokenId: token.id, userId: user.id, actual: 100 });
    const after = await postgres.db
      .selectFrom("tokens")
      .select(["remain_quota", "used_quota"])
      .where("id", "=", token.id)
      .executeTakeFirstOrThrow();
    expect([Number(after.remain_quota), Number(after.used_quota)]).toEqual([100_000 - 800, 800]);
    const rows = await postgres.db
      .selectFrom("quota_reservations")
      .select(["reserved", "actual", "settled"])
      .where(
        "id",
        "in",
        [alone, ...together].map((each) => each.requestId),
      )
      .execute();
    expect(rows).toHaveLength(11);
    expect(rows.every((row) => row.settled === 1)).toBe(true);
    expect(rows.map((row) => Number(row.actual)).reduce((sum, actual) => sum + actual)).toBe(700);
  });

  // A lone settlement reads the balances it locks too: a key whose hold was read too long ago is deferred again right
  // after its settlement, its balance counted less the cost (a lower bound of what the settlement leaves).
  it("refreshes the balances a deferral decides on from lone settlements, not only from holds", async () => {
    const user = await insertTestUser(postgres.db, { quota: 1_000_000 });
    const token = await insertTestToken(postgres.db, user.id, { remainQuota: 100_000 });
    const clock = { now: 0 };
    const ledger = createPostgresQuotaLedger(postgres.db, {
      now: () => 1_700_000_000,
      holdDeferral: { factor: 100, maxAgeMs: 2_000, now: () => clock.now },
    });
    const hold = holdOf(token);
    const first = hold(500);
    expect(await ledger.reserve(first)).toBe("held");
    clock.now = 3_000;
    expect(ledger.deferHold(hold(10))).toBe(false);
    await ledger.settle({ reservationId: first.requestId, tokenId: token.id, userId: user.id, actual: 400 });
    // Locked at 99,500 before the settlement, counted as 99,100: 991 is covered a hundred times over, 992 is not.
    expect(ledger.deferHold(hold(992))).toBe(false);
    expect(ledger.deferHold(hold(991))).toBe(true);
  });

  // A batch's statement text depends only on its shape (holds alone, settlements without rows, or with rows each
  // insert takes as one row or as arrays), so each shape is built and compiled once; its usage rows and both rollups
  // are written by it whatever the shape.
  it("writes each batch's usage rows and rollups, and compiles each shape of batch statement once", async () => {
    const user = await insertTestUser(postgres.db, { quota: 1_000_000 });
    const tokens = [
      await insertTestToken(postgres.db, user.id, { remainQuota: 1_000_000 }),
      await insertTestToken(postgres.db, user.id, { remainQuota: 1_000_000 }),
    ];
    const models = [`shape-a-${randomUUID()}`, `shape-b-${randomUUID()}`];
    const { db, counted } = countingStatements();
    const ledger = createPostgresQuotaLedger(db, { now: () => 1_700_000_000 });
    /** A settlement of a hold of 100 taken first, at `actual`, with its usage row unless `logged` is false. */
    const settlement = async (tokenIndex: number, modelIndex: number, actual: number, logged = true) => {
      const held = holdOf(tokens[tokenIndex]!)(100);
      expect(await ledger.reserve(held)).toBe("held");
      const usageRow: NewUsageLog = {
        userId: user.id,
        tokenId: held.tokenId,
        tokenName: "shapes",
        model: models[modelIndex]!,
        channelId: 1,
        requestId: held.requestId,
        isStream: false,
        promptTokens: actual * 2,
        completionTokens: actual,
        cachedTokens: actual % 3,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
        quota: actual,
        latencyMs: 5 + actual,
        status: actual % 4 === 0 ? "error" : "success",
        errorMessage: actual % 4 === 0 ? "failed" : null,
        createdTime: 1_700_000_000 + actual * 60,
        group: "default",
      };
      return {
        reservationId: held.requestId,
        tokenId: held.tokenId,
        userId: user.id,
        actual,
        usageRow: logged ? usageRow : undefined,
      };
    };
    /** The settlements as one batch: a lone hold goes first, and everything submitted meanwhile queues behind it. */
    const inOneBatch = async (settlements: Awaited<ReturnType<typeof settlement>>[]) => {
      counted.statements = 0;
      const answers = await Promise.all([
        ledger.reserve(holdOf(tokens[0]!)(1)),
        ...settlements.map((each) => ledger.settle(each)),
      ]);
      expect(answers).toEqual(["held", ...settlements.map(() => true)]);
      expect(counted.statements).toBe(2);
    };
    const shapes = async (sizes: { sameKey: number; mixed: number }) => {
      // Many rows of one key, model and hour: one rollup of each kind.
      await inOneBatch(await Promise.all(Array.from({ length: sizes.sameKey }, () => settlement(0, 0, 60))));
      // Many rows over two tokens, two models and two hours: many of each.
      await inOneBatch(
        await Promise.all(
          Array.from({ length: sizes.mixed }, (_, index) => settlement(index % 2, index % 2, 61 + index * 7)),
        ),
      );
      // One row and a settlement without one; then settlements without rows.
      await inOneBatch([await settlement(1, 0, 44), await settlement(1, 1, 45, false)]);
      await inOneBatch(await Promise.all(Array.from({ length: 3 }, () => settlement(0, 1, 30, false))));
    };
    await shapes({ sameKey: 4, mixed: 4 });
    const compiledOnce = counted.compiled;
    await shapes({ sameKey: 7, mixed: 9 });
    await shapes({ sameKey: 2, mixed: 3 });
    expect(counted.compiled).toBe(compiledOnce);

    const logged = await postgres.db
      .selectFrom("usage_logs")
      .select(({ fn }) => [fn.countAll<string>().as("rows"), fn.sum<string>("quota").as("quota")])
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    // Per pass: four rows of 60 then seven and two; the mixed rows at 61 + 7i; the lone row of 44.
    const mixed = (count: number) =>
      Array.from({ length: count }, (_, index) => 61 + index * 7).reduce((a, b) => a + b);
    expect(Number(logged.rows)).toBe(4 + 4 + 1 + 7 + 9 + 1 + 2 + 3 + 1);
    expect(Number(logged.quota)).toBe(60 * (4 + 7 + 2) + mixed(4) + mixed(9) + mixed(3) + 44 * 3);
    const { rollups, fromRows } = await readRollupsAndRowSums(postgres.db);
    const mine = (rows: typeof rollups) => rows.filter((row) => row.user_id === user.id);
    expect(mine(rollups).length).toBeGreaterThan(4);
    expect(mine(rollups)).toEqual(mine(fromRows));
    const modelRollups = await sql<{ model: string; hours: string; requests: string; errors: string; quota: string }>`
      select model, count(*) as hours, sum(requests) as requests, sum(errors) as errors, sum(quota) as quota
        from usage_model_rollups where model in (${models[0]}, ${models[1]}) group by model order by model`.execute(
      postgres.db,
    );
    const modelSums = await sql<{ model: string; hours: string; requests: string; errors: string; quota: string }>`
      select model, count(distinct created_time - created_time % 3600) as hours, count(*) as requests,
             sum(case when status = 'error' then 1 else 0 end) as errors, sum(quota) as quota
        from usage_logs where model in (${models[0]}, ${models[1]}) group by model order by model`.execute(postgres.db);
    expect(modelRollups.rows).toEqual(modelSums.rows);
  });
});
