import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import YAML from "yaml";
import type { FaultPlan } from "../mocks/upstreams/shared/fault-plan.js";
import { findFreePort } from "./find-free-port.js";
import { provisionGatewayToken } from "./provision-gateway-token.js";
import { startChildServer, type ChildServer } from "./start-child-server.js";
import {
  bareExpressName,
  handWrittenFloorName,
  directName,
  gatewayName,
  gatewayUnlimitedName,
  portkeyName,
  rawProxyName,
  undiciPassThroughName,
} from "./target-names.js";

export const benchModel = "bench-model";
export const upstreamKey = "bench-upstream-key";

export interface BenchTarget {
  name: string;
  server: ChildServer;
  /** Base URL requests go to (path `/v1/chat/completions` is appended). */
  url: string;
  headers: Record<string, string>;
}

export interface GatewayLaunch {
  /** `node dist/src/main.js` when the build succeeded, else `node --import tsx src/main.ts`. */
  entry: string[];
  /** Extra node flags, e.g. `--cpu-prof`. */
  nodeFlags?: string[];
}

export async function startFakeUpstream(projectRoot: string): Promise<ChildServer> {
  return startChildServer({
    name: "fake upstream",
    cwd: projectRoot,
    args: ["--import", "tsx", "bench/children/fake-upstream-process.ts"],
    environment: { BENCH_UPSTREAM_KEY: upstreamKey },
    ready: { ipc: true },
  });
}

export async function setUpstreamLatency(upstream: ChildServer, latencyMs: number): Promise<void> {
  await upstream.request({ type: "set-latency", latencyMs });
}

/** Replaces the fake's whole fault plan (every request until replaced); `{}` clears it. */
export async function setUpstreamFaults(upstream: ChildServer, faults: FaultPlan): Promise<void> {
  await upstream.request({ type: "set-faults", faults });
}

export function directTarget(upstream: ChildServer): BenchTarget {
  return { name: directName, server: upstream, url: upstream.url, headers: { authorization: `Bearer ${upstreamKey}` } };
}

export async function startRawProxy(projectRoot: string, upstreamUrl: string): Promise<BenchTarget> {
  const server = await startChildServer({
    name: "raw proxy",
    cwd: projectRoot,
    args: ["--import", "tsx", "bench/children/raw-proxy-process.ts"],
    environment: { BENCH_PROXY_TARGET: upstreamUrl },
    ready: { ipc: true },
  });
  return { name: rawProxyName, server, url: server.url, headers: { authorization: `Bearer ${upstreamKey}` } };
}

/** The reference of issue 19's aims: node:http in, undici `Pool.request` out, bytes piped (children/undici-pass-through-process.ts). */
export async function startUndiciPassThrough(projectRoot: string, upstreamUrl: string): Promise<BenchTarget> {
  const server = await startChildServer({
    name: "undici pass-through",
    cwd: projectRoot,
    args: ["--import", "tsx", "bench/children/undici-pass-through-process.ts"],
    environment: { BENCH_PROXY_TARGET: upstreamUrl },
    ready: { ipc: true },
  });
  return { name: undiciPassThroughName, server, url: server.url, headers: { authorization: `Bearer ${upstreamKey}` } };
}

/** The API key the hand-written floor (children/hand-written-floor-process.ts) provisions for itself. */
const floorApiKey = "sk-floorbenchfloorbenchfloorbenchfloorbenchfloorbench";

/**
 * The measured floor of the CPU aim: the work a validating, authenticating, billing gateway must do, by hand on
 * node:http and undici with the gateway's own validator and ledger and nothing else (children/hand-written-floor-process.ts).
 * Its ledger is SQLite's, or with `postgresUrl` PostgreSQL's (the multi-instance mode's floor; floors may share one,
 * on one key, or each on a key of its own with `keySuffix`: a key's floor provisions it with a user of its own).
 */
export async function startHandWrittenFloor(
  projectRoot: string,
  upstreamUrl: string,
  { postgresUrl, keySuffix = "" }: { postgresUrl?: string; keySuffix?: string } = {},
): Promise<BenchTarget> {
  const apiKey = `${floorApiKey}${keySuffix}`;
  const server = await startChildServer({
    name: "hand-written floor",
    cwd: projectRoot,
    args: ["--import", "tsx", "bench/children/hand-written-floor-process.ts"],
    environment: {
      BENCH_PROXY_TARGET: upstreamUrl,
      BENCH_UPSTREAM_KEY: upstreamKey,
      BENCH_FLOOR_KEY: apiKey,
      ...(postgresUrl === undefined ? {} : { BENCH_FLOOR_DATABASE_URL: postgresUrl }),
    },
    ready: { ipc: true },
  });
  return { name: handWrittenFloorName, server, url: server.url, headers: { authorization: `Bearer ${apiKey}` } };
}

/** The reference stack: bare Express 5 + JSON parsing + an undici pass-through (children/bare-express-proxy-process.ts). */
export async function startBareExpressProxy(projectRoot: string, upstreamUrl: string): Promise<BenchTarget> {
  const server = await startChildServer({
    name: "bare Express proxy",
    cwd: projectRoot,
    args: ["--import", "tsx", "bench/children/bare-express-proxy-process.ts"],
    environment: { BENCH_PROXY_TARGET: upstreamUrl, NODE_ENV: "production" },
    ready: { ipc: true },
  });
  return { name: bareExpressName, server, url: server.url, headers: { authorization: `Bearer ${upstreamKey}` } };
}

export async function startPortkey(projectRoot: string, upstreamUrl: string): Promise<BenchTarget> {
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startChildServer({
    name: "Portkey gateway",
    cwd: projectRoot,
    args: [
      "--import",
      "./bench/children/pin-hono-node-server.mjs",
      "node_modules/@portkey-ai/gateway/build/start-server.js",
      `--port=${port}`,
      "--headless",
    ],
    environment: { NODE_ENV: "production" },
    ready: { probeUrl: url, url },
  });
  return {
    name: portkeyName,
    server,
    url,
    headers: {
      authorization: `Bearer ${upstreamKey}`,
      "x-portkey-provider": "openai",
      "x-portkey-custom-host": `${upstreamUrl}/v1`,
    },
  };
}

export const benchImageModel = "bench-image";

export interface StartedGateway {
  server: ChildServer;
  limited: BenchTarget;
  unlimited: BenchTarget;
  dataFolder: string;
}

export interface GatewayProcess {
  server: ChildServer;
  url: string;
  adminToken: string;
  dataFolder: string;
}

/**
 * A gateway process as `npm start` runs it: SQLite in `dataFolder` (a new temporary folder unless given, so a second
 * process can take over the same database), the given GATEWAY_CONFIG content, warn logs.
 */
export async function startGatewayProcess(
  projectRoot: string,
  launch: GatewayLaunch,
  options: {
    config: object;
    dataFolder?: string;
    configName?: string;
    /** Overrides of the environment, e.g. DATABASE_URL and REDIS_URL for the multi-instance mode. */
    environment?: Record<string, string>;
    /** The root user's access token; instances of one database share it (default: a new random one). */
    adminToken?: string;
  },
): Promise<GatewayProcess> {
  const dataFolder =
    options.dataFolder ?? fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? "/tmp"), "gateway-bench-"));
  const configFile = path.join(dataFolder, options.configName ?? "gateway.yaml");
  fs.writeFileSync(configFile, YAML.stringify(options.config));
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const adminToken = options.adminToken ?? `bench-admin-${crypto.randomBytes(12).toString("hex")}`;
  const server = await startChildServer({
    name: "gateway",
    cwd: projectRoot,
    args: [...(launch.nodeFlags ?? []), ...launch.entry],
    environment: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: `sqlite:${path.join(dataFolder, "gateway.db")}`,
      GATEWAY_SECRET: "bench-gateway-secret-0123456789abcdef",
      GATEWAY_ADMIN_TOKEN: adminToken,
      GATEWAY_CONFIG: configFile,
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      ...options.environment,
    },
    ready: { probeUrl: `${url}/api/user/self`, url },
  });
  return { server, url, adminToken, dataFolder };
}

/**
 * Our gateway as `npm start` runs it, one config channel to the fake with the chat model and a per-image priced image
 * model (the large-answer point), and two tokens: a limited one and an unlimited one.
 */
export async function startGateway(
  projectRoot: string,
  upstreamUrl: string,
  launch: GatewayLaunch,
  /** More of the gateway's environment (a setting a probe compares, e.g. tracing on). */
  environment: Record<string, string> = {},
): Promise<StartedGateway> {
  const { server, url, adminToken, dataFolder } = await startGatewayProcess(projectRoot, launch, {
    environment,
    config: {
      channels: [
        {
          name: "bench",
          type: "openai",
          base_url: upstreamUrl,
          key: upstreamKey,
          models: [benchModel, benchImageModel],
        },
      ],
      pricing: { [benchModel]: { input: 1, output: 2 }, [benchImageModel]: { per_image: 0.04 } },
    },
  });
  const limitedToken = await provisionGatewayToken(url, adminToken, { name: "bench-limited", unlimited: false });
  const unlimitedToken = await provisionGatewayToken(url, adminToken, { name: "bench-unlimited", unlimited: true });
  return {
    server,
    dataFolder,
    limited: { name: gatewayName, server, url, headers: { authorization: `Bearer ${limitedToken.apiKey}` } },
    unlimited: {
      name: gatewayUnlimitedName,
      server,
      url,
      headers: { authorization: `Bearer ${unlimitedToken.apiKey}` },
    },
  };
}
