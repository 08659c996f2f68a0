import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";

export interface ChildServer {
  name: string;
  url: string;
  process: ChildProcess;
  /** Sends a message over IPC and waits for the child's next message. */
  request(message: object): Promise<unknown>;
  stop(): Promise<void>;
}

export interface ChildServerOptions {
  name: string;
  /** Arguments after the node executable. */
  args: string[];
  environment?: Record<string, string>;
  cwd: string;
  /**
   * How readiness is known: the child sends `{type: "ready", url}` over IPC, or (for programs we do not write)
   * the given URL answers any HTTP status.
   */
  ready: { ipc: true } | { probeUrl: string; url: string };
}

const startTimeoutMs = 60_000;

async function waitForHttp(probeUrl: string, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + startTimeoutMs;
  while (Date.now() < deadline) {
    if (exited()) throw new Error("exited before it answered");
    try {
      const response = await fetch(probeUrl);
      await response.arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`did not answer ${probeUrl} within ${startTimeoutMs} ms`);
}

/** Runs one server of the benchmark in its own node process, so it never shares an event loop with the load. */
export async function startChildServer(options: ChildServerOptions): Promise<ChildServer> {
  const child = spawn(process.execPath, options.args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.environment },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  let output = "";
  const keepTail = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000);
  };
  child.stdout?.on("data", keepTail);
  child.stderr?.on("data", keepTail);
  let hasExited = false;
  const exitPromise = once(child, "exit").then(() => {
    hasExited = true;
  });

  let url: string;
  try {
    if ("ipc" in options.ready) {
      const message = (await Promise.race([
        once(child, "message").then(([value]) => value as { url: string }),
        exitPromise.then(() => {
          throw new Error("exited before it was ready");
        }),
      ])) as { url: string };
      url = message.url;
    } else {
      await waitForHttp(options.ready.probeUrl, () => hasExited);
      url = options.ready.url;
    }
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`${options.name}: ${(error as Error).message}\n${output}`);
  }

  return {
    name: options.name,
    url,
    process: child,
    async request(message) {
      const reply = once(child, "message").then(([value]) => value);
      child.send(message);
      return reply;
    },
    async stop() {
      if (hasExited) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exitPromise;
      clearTimeout(timer);
    },
  };
}
