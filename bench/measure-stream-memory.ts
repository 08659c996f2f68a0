import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import { startFakeOpenaiServer } from "../mocks/upstreams/openai/start-fake-openai-server.js";
import { findFreePort } from "./find-free-port.js";
import { provisionGatewayToken } from "./provision-gateway-token.js";
import { readProcessMemory } from "./read-process-memory.js";

// The memory aims, measured on the gateway process (`npm run bench:memory`): RSS idle, with 1,000 streams
// open at once (the upstream stalls after the first events, so every stream stays open), and with 50 slow readers
// of long streams (the upstream sends as fast as it can, each client reads one chunk every 100 ms). Results are
// printed as a Markdown table for docs/BENCHMARKS.md.
const projectRoot = path.resolve(import.meta.dirname, "..");
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "bench-memory-"));
const openStreams = Number(process.env.BENCH_OPEN_STREAMS ?? 1000);
const slowReaders = Number(process.env.BENCH_SLOW_READERS ?? 50);

const upstream = await startFakeOpenaiServer({ apiKey: "bench-memory-key" });
const adminToken = `admin-${crypto.randomBytes(12).toString("hex")}`;
const configFile = path.join(folder, "config.yaml");
fs.writeFileSync(
  configFile,
  YAML.stringify({
    channels: [{ name: "main", type: "openai", base_url: upstream.url, key: "bench-memory-key", models: ["m"] }],
    pricing: { m: { input: 1, output: 2 } },
  }),
);
const port = await findFreePort();
const gateway = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
  cwd: projectRoot,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: `sqlite:${path.join(folder, "gateway.db")}`,
    GATEWAY_CONFIG: configFile,
    GATEWAY_ADMIN_TOKEN: adminToken,
    LOG_LEVEL: "warn",
  },
  stdio: "inherit",
});
const url = `http://127.0.0.1:${port}`;
for (let attempt = 0; ; attempt++) {
  if (
    await fetch(`${url}/v1/models`).then(
      () => true,
      () => false,
    )
  )
    break;
  if (attempt > 300) throw new Error("the gateway did not start");
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const { apiKey } = await provisionGatewayToken(url, adminToken, { name: "memory", unlimited: false });
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** Starts one streaming chat; resolves with the response once its first bytes arrived. */
function openStream(words: number): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}/v1/chat/completions`, {
      method: "POST",
      agent,
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    });
    request.on("response", (response) => response.once("data", () => resolve(response)));
    request.on("error", reject);
    request.end(
      JSON.stringify({
        model: "m",
        stream: true,
        messages: [{ role: "user", content: Array.from({ length: words }, (_, index) => `w${index}`).join(" ") }],
      }),
    );
  });
}

const settle = async () => {
  global.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  return readProcessMemory(gateway.pid!).rssMiB;
};

// Warm up: the first requests compile the hot path.
for (let index = 0; index < 50; index++) (await openStream(5)).resume();
const idle = await settle();

upstream.setFaults({ stallAfterChunks: 2 });
const open: http.IncomingMessage[] = [];
for (let batch = 0; batch < openStreams / 100; batch++)
  open.push(...(await Promise.all(Array.from({ length: 100 }, () => openStream(5)))));
const withOpenStreams = await settle();
for (const response of open) response.destroy();
upstream.setFaults({});
await new Promise((resolve) => setTimeout(resolve, 2000));
const afterOpen = await settle();

// Slow readers: long answers (20,000 words each) read one chunk every 100 ms.
const slow = await Promise.all(Array.from({ length: slowReaders }, () => openStream(20_000)));
const timers = slow.map((response) => {
  response.pause();
  return setInterval(() => response.read(), 100);
});
let peakDuringSlow = 0;
for (let second = 0; second < 10; second++) {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  peakDuringSlow = Math.max(peakDuringSlow, readProcessMemory(gateway.pid!).rssMiB);
}
for (const timer of timers) clearInterval(timer);
for (const response of slow) response.destroy();

const format = (value: number) => value.toFixed(1);
console.log(`
| Gateway process                                   | RSS (MiB) | Above idle (MiB) |
| ------------------------------------------------- | --------: | ---------------: |
| idle after warm-up                                | ${format(idle)} | 0 |
| ${openStreams} streams open at once                        | ${format(withOpenStreams)} | ${format(withOpenStreams - idle)} |
| after they closed                                 | ${format(afterOpen)} | ${format(afterOpen - idle)} |
| ${slowReaders} slow readers of long streams (peak over 10 s) | ${format(peakDuringSlow)} | ${format(peakDuringSlow - idle)} |
`);
gateway.kill("SIGTERM");
await new Promise((resolve) => gateway.once("exit", resolve));
agent.destroy();
await upstream.close();
fs.rmSync(folder, { recursive: true, force: true });
