import { openDatabase } from "../../src/store/open-database.js";
import {
  answerRetentionJobMessages,
  createRetentionJob,
  type RetentionJobSettings,
  reportRetentionFailure,
} from "../create-retention-job.js";

// The retention job in a process of its own, as another instance of the gateway runs it: its batches are timed by
// an event loop that nothing else keeps busy (timed in the bench process, which runs the load generator, a
// PostgreSQL batch's time included that process's waits). BENCH_RETENTION: JSON of { databaseUrl, retentionDays,
// batchSize, pauseMs }. One pass runs when the parent sends `run`; each step goes back as a message; `stop` ends the
// pass after its current batch and answers `stopped`.
const settings = JSON.parse(process.env.BENCH_RETENTION ?? "{}") as RetentionJobSettings & { databaseUrl: string };
const database = await openDatabase(settings.databaseUrl, {
  postgresTimeouts: { statementTimeoutMs: 0, queryTimeoutMs: 0 },
});
answerRetentionJobMessages(createRetentionJob(database, settings, reportRetentionFailure));
process.on("SIGTERM", () => {
  void database.close().then(() => process.exit(0));
});
process.send?.({ type: "ready" });
