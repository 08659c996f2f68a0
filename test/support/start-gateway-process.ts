import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { testLogFolder } from "./test-log-folder.js";

const projectRoot = path.resolve(import.meta.dirname, "..", "..");

export interface GatewayProcess {
  child: ChildProcess;
  url: string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  output(): string;
}

export function findFreePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The gateway as `npm start` runs it (src/main.ts in its own process), listening on 127.0.0.1 and a free port, its
 * log in the scanned test log folder; resolves once it is listening.
 */
export async function startGatewayProcess(
  environment: Record<string, string>,
  options: { listenWithinMs?: number; nodeArguments?: string[] } = {},
): Promise<GatewayProcess> {
  const port = await findFreePort();
  fs.mkdirSync(testLogFolder, { recursive: true });
  const child = spawn(process.execPath, ["--import", "tsx", ...(options.nodeArguments ?? []), "src/main.ts"], {
    cwd: projectRoot,
    env: {
      ...process.env,
      LOG_LEVEL: "info",
      LOG_FILE: path.join(testLogFolder, `gateway-process-${port}.log`),
      PORT: String(port),
      HOST: "127.0.0.1",
      ...environment,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const listenWithinMs = options.listenWithinMs ?? 30_000;
  const deadline = Date.now() + listenWithinMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the gateway exited at start: ${output}`);
    const listening = await fetch(`${url}/v1/models`).then(
      () => true,
      () => false,
    );
    if (listening) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the gateway did not listen within ${listenWithinMs / 1000} s: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, url, exited, output: () => output };
}
