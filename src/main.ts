import type { Server } from "node:http";
import type { GatewayConfig } from "./config/gateway-config.js";
import { loadConfig } from "./config/load-config.js";
import { createGateway, type Gateway } from "./create-gateway.js";
import { GatewayError } from "./errors/gateway-error.js";
import { createGatewayServer } from "./http/create-gateway-server.js";
import { createLogger } from "./logging/logger.js";

// Process entry: config → store → app → listen; SIGTERM/SIGINT stop taking requests, drain, flush, exit.
let config: GatewayConfig;
try {
  config = loadConfig();
} catch (error) {
  console.error(
    `Configuration error: ${error instanceof GatewayError || error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(2);
}
const logger = createLogger({ level: config.logLevel, file: config.logFile });
let gateway: Gateway;
try {
  gateway = await createGateway(config, logger);
} catch (error) {
  console.error(`Cannot start the gateway: ${(error as Error).message}`);
  process.exit(1);
}

const server: Server = createGatewayServer(gateway.app).listen(config.port, config.host);
server.on("listening", () =>
  logger.info(
    { port: config.port, host: config.host, database: config.databaseUrl.split(":")[0] },
    "gateway listening",
  ),
);
server.on("error", (error) => {
  console.error(`Cannot listen on ${config.host}:${config.port}: ${error.message}`);
  process.exit(1);
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "draining");
  const forceExit = setTimeout(() => {
    logger.warn("drain timed out; closing remaining connections");
    server.closeAllConnections();
  }, config.shutdownGraceMs);
  forceExit.unref();
  server.closeIdleConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await gateway.close();
  logger.info("stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
