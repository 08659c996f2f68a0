import type { Server } from "node:http";
import { collectStartNotes } from "./collect-start-notes.js";
import type { GatewayConfig } from "./config/gateway-config.js";
import { assertConfigChannelSettingsFit } from "./config/assert-config-channel-settings-fit.js";
import { loadConfig } from "./config/load-config.js";
import { createGateway, findProviderAdapter, type Gateway } from "./create-gateway.js";
import { GatewayError } from "./errors/gateway-error.js";
import { createGatewayServer } from "./http/create-gateway-server.js";
import { createLogger } from "./logging/logger.js";
import { UpstreamFailure } from "./upstream/upstream-failure.js";
import { countChannels } from "./store/channels/count-channels.js";
import { startTracing } from "./tracing/start-tracing.js";

// Process entry: config → store → app → listen; SIGTERM/SIGINT stop taking requests, drain, flush, exit.
let config: GatewayConfig;
try {
  config = loadConfig();
  // createGateway checks this too; checked here, a settings typo is a configuration error like any other in the file.
  assertConfigChannelSettingsFit(config.channels, findProviderAdapter);
} catch (error) {
  console.error(
    `Configuration error: ${error instanceof GatewayError || error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(2);
}
const logger = createLogger({ level: config.logLevel, file: config.logFile });
let gateway: Gateway;
let tracing: Awaited<ReturnType<typeof startTracing>>;
try {
  // Before the gateway: its first requests are traced too. Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set.
  tracing = await startTracing(process.env, logger);
  gateway = await createGateway(config, logger);
} catch (error) {
  console.error(`Cannot start the gateway: ${(error as Error).message}`);
  process.exit(1);
}

const startNotes = collectStartNotes({ config, channelCount: await countChannels(gateway.context.database.db) });
const server: Server = createGatewayServer(gateway.app).listen(config.port, config.host);
server.on("listening", () => {
  logger.info(
    { port: config.port, host: config.host, database: config.databaseUrl.split(":")[0] },
    "gateway listening",
  );
  for (const note of startNotes) logger[note.level](note.message);
});
server.on("error", (error) => {
  console.error(`Cannot listen on ${config.host}:${config.port}: ${error.message}`);
  process.exit(1);
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal, graceMs: config.shutdownGraceMs }, "draining");
  // New connections are refused; requests in flight have the grace period to finish on their own.
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // Keep-alive connections become idle as their answers end: close them as they do.
  const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
  idleSweep.unref();
  const graceOver = new Promise<"grace over">((resolve) =>
    setTimeout(() => resolve("grace over"), config.shutdownGraceMs).unref(),
  );
  if ((await Promise.race([closed, graceOver])) === "grace over") {
    // Streams still open end with an error event in their generation's shape and are billed for what they used.
    const aborted = gateway.context.openRelays?.abortAll(
      new UpstreamFailure("The gateway is shutting down; this answer ends here.", false, {
        status: 503,
        code: "shutting_down",
      }),
    );
    logger.warn({ aborted }, "grace period over; open requests were ended with an error");
    const lastCall = new Promise<void>((resolve) => setTimeout(resolve, 2000).unref());
    await Promise.race([closed, lastCall]);
    server.closeAllConnections();
    await closed;
  }
  clearInterval(idleSweep);
  await gateway.close();
  // The last spans are exported before the process ends.
  await tracing?.shutdown().catch((error: unknown) => logger.warn({ err: error }, "cannot export the last spans"));
  logger.info("stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
