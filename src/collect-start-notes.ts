import fs from "node:fs";
import path from "node:path";
import type { GatewayConfig } from "./config/gateway-config.js";

/** The admin token the README's first steps use; a gateway started with it is open to anyone who read them. */
export const readmeExampleAdminToken = "change-me-admin-token";

export interface StartNote {
  level: "info" | "warn";
  message: string;
}

export interface StartFacts {
  config: Pick<GatewayConfig, "host" | "port" | "adminToken" | "consoleFolder">;
  /** Channels in the store once the config file's are synced (config and admin API alike). */
  channelCount: number;
}

/**
 * What a person starting the gateway needs to read in its first lines: where the console is, and the two mistakes
 * that make a first start look broken or unsafe (no channel, so every model call answers 503; the README's example
 * admin token left in place).
 */
export function collectStartNotes(facts: StartFacts): StartNote[] {
  const { config } = facts;
  const notes: StartNote[] = [];
  const base = `http://${browsableHost(config.host)}:${config.port}`;
  if (fs.existsSync(path.join(config.consoleFolder, "index.html")))
    notes.push({ level: "info", message: `web console at ${base}/ (APIs under ${base}/v1, /v1beta and /api)` });
  else
    notes.push({
      level: "warn",
      message: `web console not built (no index.html in ${config.consoleFolder}): run npm run build; the APIs are under ${base}/v1, /v1beta and /api`,
    });
  if (facts.channelCount === 0)
    notes.push({
      level: "warn",
      message:
        "no channel is configured: every model call answers 503 until one is added (channels in the GATEWAY_CONFIG file, or POST /api/channel/; see the README's first steps)",
    });
  if (config.adminToken === readmeExampleAdminToken)
    notes.push({
      level: "warn",
      // The value itself stays out of the log, public as it is.
      message:
        "GATEWAY_ADMIN_TOKEN is the README's example value: anyone who read the README can administer this gateway; set a secret of your own before others can reach it",
    });
  return notes;
}

/** A wildcard listen address is not something to type into a browser. */
function browsableHost(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return "localhost";
  return host.includes(":") ? `[${host}]` : host;
}
