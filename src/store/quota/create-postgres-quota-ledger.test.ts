import { randomUUID } from "node:crypto";
import { type KyselyPlugin, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { insertTestToken } from "../testing/insert-test-token.js";
import { insertTestUser } from "../testing/insert-test-user.js";
import { openTestDatabases } from "../testing/open-test-databases.js";
import { testUsageRow as rowOf } from "../testing/test-usage-row.js";
import type { NewUsageLog } from "../usage-logs/insert-usage-logs.js";
import { readRollupsAndRowSums } from "../../../test/support/compare-rollups-with-rows.js";
import { createPostgresQuotaLedger, type PostgresQuotaLedger } from "./create-postgres-quota-ledger.js";

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

/** A ledger whose deferral reads `clock.now`, over a token of 100,000 whose owner has 1,000,000. */
async function ledgerOnAClock() {
  const user = await insertTestUser(postgres.db, { quota: 1_000_000 });
  const token = await insertTestToken(postgres.db, user.id, { remainQuota: 100_000 });
  const clock = { now: 0 };
  const ledger = createPostgresQuotaLedger(postgres.db, {
    now: () => 1_700_000_000,
    holdDeferral: { factor: 100, maxAgeMs: 2_000, now: () => clock.now },
  });
  return { user, token, clock, ledger, hold: holdOf(token) };
}

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

  // A deferred hold is one statement alone (hold and settlement), and one item of its batch's cycle, which holds it and
  // then settles it (migration 0021). Either way it leaves what a hold and its settlement leave.
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
    // Ten together, queued behind the statement before (its slot frees just after its answer): one cycle, which holds
    // and then settles each of them (two statements before migration 0021: their holds, then their settlements).
    const together = Array.from({ length: 10 }, () => hold(50));
    for (const each of together) expect(ledger.deferHold(each)).toBe(true);
    counted.statements = 0;
    const outcomes = await Promise.all(together.map((each) => ledger.settleDeferred(each, { actual: 30 })));
    expect(outcomes).toEqual(Array.from({ length: 10 }, () => "held"));
    expect(counted.statements).toBe(1);
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
    const { user, token, clock, ledger, hold } = await ledgerOnAClock();
    const first = hold(500);
    expect(await ledger.reserve(first)).toBe("held");
    clock.now = 3_000;
    expect(ledger.deferHold(hold(10))).toBe(false);
    await ledger.settle({ reservationId: first.requestId, tokenId: token.id, userId: user.id, actual: 400 });
    // Locked at 99,500 before the settlement, counted as 99,100: 991 is covered a hundred times over, 992 is not.
    expect(ledger.deferHold(hold(992))).toBe(false);
    expect(ledger.deferHold(hold(991))).toBe(true);
  });

  // A busy instance sends batches, not lone statements: each cycle answers its holds' balances after it, so deferral
  // keeps deciding on fresh balances under load (before, it stopped two seconds after the last lone statement).
  it("refreshes the balances a deferral decides on from batches, after their cycle", async () => {
    const { clock, ledger, hold } = await ledgerOnAClock();
    expect(await ledger.reserve(hold(500))).toBe("held");
    clock.now = 3_000;
    expect(ledger.deferHold(hold(10))).toBe(false);
    // A lone hold first, then a batch of four behind it, whose cycle reads 100,000 − 500 − 100 − 4 × 100 = 99,000.
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => ledger.reserve(hold(100))));
    expect(outcomes).toEqual(Array.from({ length: 5 }, () => "held"));
    expect(ledger.deferHold(hold(991))).toBe(false);
    expect(ledger.deferHold(hold(990))).toBe(true);
  });

  // A deferred hold its cycle cannot take (its balance spent since the deferral read it) rolls the whole cycle back;
  // the batch's deferred holds then go alone and the rest as a cycle again. Only the holds taken are settled and
  // logged, the refused one changes nothing, and every other item of the batch is applied once.
  it("applies a batch whose deferred hold is refused once, that hold alone and refused, the rest as before", async () => {
    const user = await insertTestUser(postgres.db, { quota: 1_000_000 });
    const token = await insertTestToken(postgres.db, user.id, { remainQuota: 100_000 });
    const other = await insertTestToken(postgres.db, user.id, { remainQuota: 100_000 });
    const { db, counted } = countingStatements();
    const ledger = createPostgresQuotaLedger(db, { now: () => 1_700_000_000 });
    const first = holdOf(token)(10);
    expect(await ledger.reserve(first)).toBe("held");
    expect(await ledger.reserve(holdOf(other)(10))).toBe("held");
    const deferred = [holdOf(token)(50), holdOf(other)(50), holdOf(other)(50)];
    for (const each of deferred) expect(ledger.deferHold(each)).toBe(true);
    // Somebody else spends the first token's balance down to 20 meanwhile.
    await postgres.db.updateTable("tokens").set({ remain_quota: 20 }).where("id", "=", token.id).execute();
    const row = (requestId: string, quota: number) => rowOf(user.id, token.id, requestId, quota);
    const plain = holdOf(other)(5);
    counted.statements = 0;
    const answers = await Promise.all([
      ledger.reserve(holdOf(other)(1)),
      ...deferred.map((each) => ledger.settleDeferred(each, { actual: 30, usageRow: row(each.requestId, 30) })),
      ledger.settle({ reservationId: first.requestId, tokenId: token.id, userId: user.id, actual: 4 }),
      ledger.reserve(plain),
    ]);
    expect(answers).toEqual(["held", "token", "held", "held", true, "held"]);
    // Counted as they answer: the lone hold, the rest as a cycle and the three deferred holds alone (the cycle that
    // rolled back answered none).
    expect(counted.statements).toBe(5);
    const balances = await postgres.db
      .selectFrom("tokens")
      .select(["id", "remain_quota", "used_quota"])
      .where("id", "in", [token.id, other.id])
      .orderBy("id")
      .execute();
    // The first token: 20 + 10 − 4 back from its settlement. The other: 100,000 − 10 − 1 − 5 held, 2 × 30 spent.
    expect(balances.map((each) => [Number(each.remain_quota), Number(each.used_quota)])).toEqual([
      [26, 4],
      [100_000 - 16 - 60, 60],
    ]);
    const logged = await postgres.db
      .selectFrom("usage_logs")
      .select("request_id")
      .where(
        "request_id",
        "in",
        deferred.map((each) => each.requestId),
      )
      .execute();
    expect(logged.map((each) => each.request_id).sort()).toEqual(
      deferred
        .slice(1)
        .map((each) => each.requestId)
        .sort(),
    );
    const reservations = await postgres.db
      .selectFrom("quota_reservations")
      .select("id")
      .where(
        "id",
        "in",
        deferred.map((each) => each.requestId),
      )
      .execute();
    expect(reservations).toHaveLength(2);
  });

  // Two busy instances on one key, most requests deferred and settled in their batches' cycles, a few held first;
  // midway the operator cuts the token's balance, so deferred holds of some cycles are refused and go alone. Every
  // request answered as taken is billed once with its usage row, no other is, and no balance goes below zero.
  it("bills deferred holds in cycles of two instances exactly once, through a cut balance", async () => {
    const user = await insertTestUser(postgres.db, { quota: 1_000_000_000 });
    const token = await insertTestToken(postgres.db, user.id, { remainQuota: 2_000_000 });
    const instances = [0, 1].map(() => createPostgresQuotaLedger(postgres.db, { now: () => 1_700_000_000 }));
    const taken: { requestId: string; actual: number }[] = [];
    const answers = new Map<string, number>();
    let cut = false;
    const caller = async (ledger: PostgresQuotaLedger, seed: number) => {
      for (let index = 0; index < 30; index += 1) {
        const hold = holdOf(token)(200 + ((index * 7 + seed) % 50));
        const actual = (index * 31 + seed * 13) % 260;
        const usageRow = rowOf(user.id, token.id, hold.requestId, actual);
        let outcome: string;
        if (ledger.deferHold(hold)) {
          outcome = await ledger.settleDeferred(hold, { actual, usageRow });
          answers.set(`deferred ${outcome}`, (answers.get(`deferred ${outcome}`) ?? 0) + 1);
        } else {
          outcome = await ledger.reserve(hold);
          answers.set(`held first ${outcome}`, (answers.get(`held first ${outcome}`) ?? 0) + 1);
          if (outcome === "held") {
            const reservationId = hold.requestId;
            expect(await ledger.settle({ reservationId, tokenId: token.id, userId: user.id, actual, usageRow })).toBe(
              true,
            );
          }
        }
        if (outcome === "held") taken.push({ requestId: hold.requestId, actual });
        if (!cut && taken.length >= 150) {
          cut = true;
          // Less than any hold: the deferred requests the other callers have in flight cannot be taken.
          await postgres.db.updateTable("tokens").set({ remain_quota: 100 }).where("id", "=", token.id).execute();
        }
      }
    };
    await Promise.all(
      instances.flatMap((ledger, instance) =>
        Array.from({ length: 8 }, (_, seed) => caller(ledger, seed + 8 * instance)),
      ),
    );
    const spent = taken.reduce((sum, each) => sum + each.actual, 0);
    const tokenRow = await postgres.db
      .selectFrom("tokens")
      .select(["remain_quota", "used_quota"])
      .where("id", "=", token.id)
      .executeTakeFirstOrThrow();
    expect(Number(tokenRow.used_quota)).toBe(spent);
    expect(Number(tokenRow.remain_quota)).toBeGreaterThanOrEqual(0);
    const logged = await postgres.db
      .selectFrom("usage_logs")
      .select(["request_id", "quota"])
      .where("token_id", "=", token.id)
      .execute();
    expect(logged.map((row) => `${row.request_id} ${row.quota}`).sort()).toEqual(
      taken.map((each) => `${each.requestId} ${each.actual}`).sort(),
    );
    const unsettled = await postgres.db
      .selectFrom("quota_reservations")
      .select("id")
      .where("token_id", "=", token.id)
      .where("settled", "=", 0)
      .execute();
    expect(unsettled).toEqual([]);
    // Both paths ran, and the cut refused deferred holds.
    expect(answers.get("deferred held")).toBeGreaterThan(100);
    expect(answers.get("held first held")).toBeGreaterThan(0);
    expect(answers.get("deferred token")).toBeGreaterThan(0);
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
