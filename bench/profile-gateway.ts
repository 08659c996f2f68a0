import fs from "node:fs";
import path from "node:path";
import { runLoadPoint, type LoadPointResult } from "./run-load-point.js";
import { startGateway, type GatewayLaunch } from "./start-bench-servers.js";
import { summariseCpuProfile, type CpuProfileSummary, type MonotonicWindow } from "./summarise-cpu-profile.js";

export interface GatewayProfile {
  summary: CpuProfileSummary;
  load: LoadPointResult;
  profileFile: string;
}

/**
 * A fresh gateway under `node --cpu-prof`, loaded like the 0 ms / 64-connection point with the limited token.
 * The profile is written when the gateway exits after its SIGTERM drain; only the measured load is summarised.
 */
export async function profileGateway(
  projectRoot: string,
  upstreamUrl: string,
  launch: GatewayLaunch,
  options: { body: string; warmupSeconds: number; durationSeconds: number },
): Promise<GatewayProfile> {
  const profileFolder = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? "/tmp"), "gateway-profile-"));
  const gateway = await startGateway(projectRoot, upstreamUrl, {
    ...launch,
    nodeFlags: [...(launch.nodeFlags ?? []), "--cpu-prof", `--cpu-prof-dir=${profileFolder}`],
  });
  let load: LoadPointResult;
  // V8 stamps samples with CLOCK_MONOTONIC, as process.hrtime does, so the measured span can be cut out exactly.
  const window: MonotonicWindow = { startMicroseconds: 0, endMicroseconds: 0 };
  try {
    await runLoadPoint({
      target: gateway.limited,
      connections: 64,
      durationSeconds: options.warmupSeconds,
      body: options.body,
    });
    window.startMicroseconds = Number(process.hrtime.bigint() / 1000n);
    load = await runLoadPoint({
      target: gateway.limited,
      connections: 64,
      durationSeconds: options.durationSeconds,
      body: options.body,
    });
    window.endMicroseconds = Number(process.hrtime.bigint() / 1000n);
  } finally {
    await gateway.server.stop();
    fs.rmSync(gateway.dataFolder, { recursive: true, force: true });
  }
  const profileName = fs.readdirSync(profileFolder).find((name) => name.endsWith(".cpuprofile"));
  if (!profileName) throw new Error(`the gateway wrote no .cpuprofile into ${profileFolder}`);
  const profileFile = path.join(profileFolder, profileName);
  return { summary: summariseCpuProfile(profileFile, window), load, profileFile };
}
