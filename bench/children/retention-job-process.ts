import type { GatewayConfig } from "../../src/config/gateway-config.js";
import { createLogger } from "../../src/logging/logger.js";
import { openDatabase } from "../../src/store/open-database.js";
import { startUsageRetention } from "../../src/usage-logs/start-usage-retention.js";

// The retention job in a process of its own, as another instance of the gateway runs it: its batches are timed by
// an event loop that nothing else keeps busy (timed in the bench process, which runs the load generator, a
// PostgreSQL batch's time included that process's waits). BENCH_RETENTION: JSON of { databaseUrl, retentionDays,
// batchSize, pauseMs }. One pass runs when the parent sends `run`; each step goes back as a message; `stop` ends the
// pass after its current batch and answers `stopped`.
const settings = JSON.parse(process.env.BENCH_RETENTION ?? "{}") as {
  databaseUrl: string;
  retentionDays: number;
  batchSize: number;
  pauseMs: number;
};
const database = await openDatabase(settings.databaseUrl, {
  postgresTimeouts: { statementTimeoutMs: 0, queryTimeoutMs: 0 },
});
const config = {
  logs: {
    retentionDays: settings.retentionDays,
    rollupRetentionDays: 0,
    retentionBatchSize: settings.batchSize,
    retentionPauseMs: settings.pauseMs,
  },
} as GatewayConfig;
let retention: ReturnType<typeof startUsageRetention> | undefined;
let pass: Promise<unknown> = Promise.resolve();
process.on("message", (message: { type: string }) => {
  if (message.type === "run") {
    retention = startUsageRetention(
      { config, database, logger: createLogger({ level: "warn" }), now: () => Math.floor(Date.now() / 1000) },
      {
        intervalMs: 3_600_000,
        firstPassAfterMs: 3_600_000,
        onStep: (step) => process.send?.({ type: "step", step }),
      },
    );
    pass = retention.runOnce().catch((error: unknown) => process.send?.({ type: "failed", message: String(error) }));
  } else if (message.type === "stop") {
    void (async () => {
      await retention?.stop();
      await pass;
      process.send?.({ type: "stopped" });
    })();
  }
});
process.on("SIGTERM", () => {
  void database.close().then(() => process.exit(0));
});
process.send?.({ type: "ready" });
