import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { selectApiGeneration, type ApiGeneration } from "../../src/http/api-generation.js";

export interface PrismMock {
  url: string;
  close(): Promise<void>;
}

const projectRoot = path.resolve(import.meta.dirname, "..", "..");
const prismBin = path.join(projectRoot, "node_modules", ".bin", "prism");
const generations: ApiGeneration[] = ["management", "openai", "native", "anthropic"];

function waitForPort(port: number, child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 60_000;
    child.once("exit", (code) => reject(new Error(`prism exited with code ${code}`)));
    const attempt = () => {
      const request = http.get({ host: "127.0.0.1", port, path: "/__prism_ready" }, (response) => {
        response.resume();
        resolve();
      });
      request.on("error", () => {
        if (Date.now() > deadline) reject(new Error(`prism did not listen on ${port}`));
        else setTimeout(attempt, 200);
      });
    };
    attempt();
  });
}

/**
 * Prism serves one spec per process, so one runs per generation behind a small front that routes by path prefix
 * exactly as the gateway does: clients see one origin, as they would with the real gateway.
 */
export async function startPrismMock(options: {
  /** The front's port; 0 picks a free one. */
  port: number;
  /** Ports of the four Prism processes: `internalPorts` when given, else `internalPortBase` + 0, 1, 2, 3. */
  internalPortBase?: number;
  internalPorts?: number[];
  quiet?: boolean;
}): Promise<PrismMock> {
  const children: ChildProcess[] = [];
  const ports = new Map<ApiGeneration, number>();
  const internalPorts =
    options.internalPorts ??
    generations.map((_generation, index) => (options.internalPortBase ?? options.port + 1) + index);
  if (internalPorts.length !== generations.length)
    throw new Error(`startPrismMock needs ${generations.length} internal ports`);
  for (const [index, generation] of generations.entries()) {
    const port = internalPorts[index];
    ports.set(generation, port);
    const child = spawn(
      prismBin,
      [
        "mock",
        path.join(projectRoot, "generated", "openapi", `${generation}.json`),
        "--host",
        "127.0.0.1",
        "--port",
        String(port),
        "--errors",
        "false",
      ],
      { cwd: projectRoot, stdio: options.quiet ? "ignore" : ["ignore", "inherit", "inherit"] },
    );
    children.push(child);
  }
  try {
    await Promise.all(generations.map((generation, index) => waitForPort(ports.get(generation)!, children[index]!)));
  } catch (error) {
    for (const child of children) child.kill("SIGTERM");
    throw error;
  }

  const front = http.createServer((request, response) => {
    const generation = selectApiGeneration(new URL(request.url ?? "/", "http://mock").pathname);
    if (!generation) {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          error: { message: "No such path in the gateway's APIs.", type: "invalid_request_error", code: "not_found" },
        }),
      );
      return;
    }
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port: ports.get(generation),
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (upstreamResponse) => {
        response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
        upstreamResponse.pipe(response);
      },
    );
    upstream.on("error", () => {
      response.writeHead(502);
      response.end();
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => front.listen(options.port, "127.0.0.1", resolve));
  const address = front.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await new Promise<void>((resolve) => front.close(() => resolve()));
      for (const child of children) child.kill("SIGTERM");
    },
  };
}
