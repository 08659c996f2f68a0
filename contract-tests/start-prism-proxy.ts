import { spawn } from "node:child_process";
import path from "node:path";
import { childProcessRegistry } from "./child-process-registry.js";
import { waitForHttp } from "./wait-for-http.js";

export interface PrismProxy {
  url: string;
  close(): void;
}

const projectRoot = path.resolve(import.meta.dirname, "..");

/**
 * `prism proxy <spec> <upstream>` on 127.0.0.1:port. With `errors`, a request or response that breaks the spec
 * gets Prism's problem JSON instead of the upstream's answer (and invalid requests are never forwarded); without,
 * everything is forwarded and violations are listed in the `sl-violations` response header.
 */
export async function startPrismProxy(options: {
  specFile: string;
  upstreamUrl: string;
  port: number;
  errors: boolean;
}): Promise<PrismProxy> {
  const child = spawn(
    path.join(projectRoot, "node_modules", ".bin", "prism"),
    [
      "proxy",
      options.specFile,
      options.upstreamUrl,
      "--host",
      "127.0.0.1",
      "--port",
      String(options.port),
      "--errors",
      String(options.errors),
    ],
    { cwd: projectRoot, stdio: ["ignore", "ignore", "pipe"] },
  );
  childProcessRegistry.add(child);
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let exitCode: number | null | undefined;
  child.on("exit", (code) => {
    exitCode = code;
  });
  const url = `http://127.0.0.1:${options.port}`;
  const close = () => {
    if (exitCode === undefined) child.kill("SIGTERM");
  };
  try {
    // Eight Prism processes (two per API) start at once on a shared 2-core machine: a minute was not always enough.
    await waitForHttp(`${url}/`, {
      timeoutMs: 120_000,
      isDead: () => (exitCode === undefined ? undefined : `prism proxy exited with code ${exitCode}: ${stderr}`),
    });
  } catch (error) {
    close();
    throw error;
  }
  return { url, close };
}
