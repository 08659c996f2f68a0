import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../src/store/open-database.js";
import { createSqliteQuotaLedger } from "../src/store/quota/create-sqlite-quota-ledger.js";
import { insertToken } from "../src/store/tokens/insert-token.js";
import { createSqliteUsageLogInserter } from "../src/store/usage-logs/create-sqlite-usage-log-inserter.js";
import { insertUser } from "../src/store/users/insert-user.js";

export interface SettlementCommitPoint {
  /** Requests whose settlements share one commit (the gateway commits once per event-loop turn). */
  requestsPerCommit: number;
  requests: number;
  cpuMicrosecondsPerRequest: number;
  userMicrosecondsPerRequest: number;
  systemMicrosecondsPerRequest: number;
}

/**
 * The money floor of the limited-token path on SQLite, outside the gateway: the statements one request runs
 * (the conditional reservation UPDATE, the settlement with its ledger row, the usage row) through the gateway's
 * own ledger and commit window (src/store/quota/), with `requestsPerCommit` settlements sharing each commit, as
 * the settlements finished in one event-loop turn do. The answer waits for that commit (a request is
 * answered only once its settlement is durable), so this is what any request of a limited token costs at least, whatever the HTTP side does.
 */
export async function measureSettlementCommits(options: {
  requestsPerCommit: number[];
  requests: number;
}): Promise<SettlementCommitPoint[]> {
  const points: SettlementCommitPoint[] = [];
  for (const requestsPerCommit of options.requestsPerCommit) {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "settlement-commits-"));
    const database = await openDatabase(`sqlite:${path.join(folder, "gateway.db")}`);
    try {
      const user = await insertUser(database.db, { username: "bench", passwordHash: "-", createdTime: 1 });
      const token = await insertToken(database.db, {
        userId: user.id,
        name: "bench",
        keyHash: "bench-key-hash",
        keyEncrypted: "-",
        remainQuota: Number.MAX_SAFE_INTEGER,
        createdTime: 1,
      });
      const connection = database.sqliteConnection!;
      const commitWindow = database.sqliteCommitWindow!;
      const ledger = createSqliteQuotaLedger(connection, commitWindow);
      const insertUsageLog = createSqliteUsageLogInserter(connection);
      let sequence = 0;
      const runRequests = async (count: number) => {
        for (let done = 0; done < count; done += requestsPerCommit) {
          const settlements: Array<Promise<boolean>> = [];
          for (let index = 0; index < requestsPerCommit; index += 1) {
            const requestId = `req_${(sequence++).toString(16).padStart(32, "0")}`;
            await ledger.reserve({ requestId, tokenId: token.id, userId: user.id, amount: 1_000, createdTime: 1 });
            settlements.push(ledger.settle({ requestId, actual: 34, settledTime: 2 }));
            commitWindow.defer(() =>
              insertUsageLog({
                userId: user.id,
                tokenId: token.id,
                tokenName: "bench",
                model: "bench-model",
                channelId: 1,
                requestId,
                isStream: false,
                promptTokens: 10,
                completionTokens: 12,
                cachedTokens: 0,
                cacheWriteTokens: 0,
                reasoningTokens: 0,
                quota: 34,
                latencyMs: 1,
                status: "success",
                errorMessage: null,
                group: "default",
                createdTime: 1_700_000_000,
              }),
            );
          }
          await Promise.all(settlements);
        }
      };
      await runRequests(Math.min(2_000, options.requests));
      const cpuAtStart = process.cpuUsage();
      await runRequests(options.requests);
      const cpu = process.cpuUsage(cpuAtStart);
      points.push({
        requestsPerCommit,
        requests: options.requests,
        cpuMicrosecondsPerRequest: (cpu.user + cpu.system) / options.requests,
        userMicrosecondsPerRequest: cpu.user / options.requests,
        systemMicrosecondsPerRequest: cpu.system / options.requests,
      });
    } finally {
      await database.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  }
  return points;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const points = await measureSettlementCommits({
    requestsPerCommit: [1, 2, 4, 8, 16, 32],
    requests: process.env.BENCH_QUICK === "1" ? 3_000 : 30_000,
  });
  for (const point of points)
    console.log(
      `${point.requestsPerCommit} per commit: ${point.cpuMicrosecondsPerRequest.toFixed(1)} µs CPU per request (user ${point.userMicrosecondsPerRequest.toFixed(1)}, system ${point.systemMicrosecondsPerRequest.toFixed(1)})`,
    );
}
