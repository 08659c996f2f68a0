import { loadConfig } from "../../src/config/load-config.js";
import { createGateway } from "../../src/create-gateway.js";
import { createGatewayServer } from "../../src/http/create-gateway-server.js";
import { createLogger } from "../../src/logging/logger.js";
import {
  answerRetentionJobMessages,
  createRetentionJob,
  type RetentionJobSettings,
  reportRetentionFailure,
} from "../create-retention-job.js";

// A gateway as src/main.ts starts it, with the bench's retention job on the gateway's own database connection, as
// the gateway runs its job: on SQLite the two share one connection, and a request's write never meets a batch in
// SQLite's busy handler, as it does with the job in another process. BENCH_RETENTION: JSON of { retentionDays,
// batchSize, pauseMs }. The same messages as retention-job-process.ts: `run`, `stop` → `stopped`, each step back.
const settings = JSON.parse(process.env.BENCH_RETENTION ?? "{}") as RetentionJobSettings;
const config = loadConfig();
const gateway = await createGateway(config, createLogger({ level: config.logLevel }));
const server = createGatewayServer(gateway.app).listen(config.port, config.host);
answerRetentionJobMessages(createRetentionJob(gateway.context.database, settings, reportRetentionFailure));
process.on("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  void gateway.close().then(() => process.exit(0));
});
