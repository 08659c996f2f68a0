import express, { type Router } from "express";
import type { Registry } from "prom-client";
import { constantTimeEqual } from "../keys/constant-time-equal.js";

export interface ReadinessCheck {
  /** Named in the 503 answer when it fails: `database`, `redis`. */
  name: string;
  check(): Promise<void>;
}

export interface OperatorRouterOptions {
  readinessChecks: ReadinessCheck[];
  registry: Registry;
  /** When set, GET /metrics requires `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** A check that has not answered by then counts as failed (a black-holed database must not hang the probe). */
  readinessTimeoutMs?: number;
}

/**
 * What load balancers and Prometheus ask: `/healthz` (the process answers), `/readyz` (its database and, when
 * configured, Redis answer too; 503 naming the failing part) and `/metrics`. No API key, not billed.
 */
export function createOperatorRouter(options: OperatorRouterOptions): Router {
  const router = express.Router();
  const timeoutMs = options.readinessTimeoutMs ?? 2_000;

  router.get("/healthz", (_request, response) => {
    response.setHeader("Cache-Control", "no-store");
    response.json({ status: "ok" });
  });

  router.get("/readyz", async (_request, response) => {
    const results = await Promise.all(
      options.readinessChecks.map(async ({ name, check }) => ({
        name,
        failure: await runWithTimeout(check, timeoutMs),
      })),
    );
    const failing = results.filter((result) => result.failure !== undefined);
    const checks = Object.fromEntries(results.map(({ name, failure }) => [name, failure ?? "ok"]));
    response.setHeader("Cache-Control", "no-store");
    if (failing.length === 0) {
      response.json({ status: "ready", checks });
      return;
    }
    response.status(503).json({
      status: "unavailable",
      message: `not ready: ${failing.map(({ name }) => `${name} unreachable`).join(", ")}`,
      checks,
    });
  });

  router.get("/metrics", async (request, response) => {
    if (options.metricsToken !== undefined) {
      const header = request.headers.authorization ?? "";
      const presented = header.startsWith("Bearer ") ? header.slice("Bearer ".length).trim() : "";
      if (!constantTimeEqual(presented, options.metricsToken)) {
        response.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
        response.status(401).type("text/plain").send("GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.\n");
        return;
      }
    }
    const body = await options.registry.metrics();
    response.setHeader("Cache-Control", "no-store");
    response.type(options.registry.contentType).send(body);
  });

  return router;
}

/** undefined when the check passed in time, else what went wrong (no secrets: messages of connection errors). */
async function runWithTimeout(check: () => Promise<void>, timeoutMs: number): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
  });
  try {
    return await Promise.race([
      check().then(
        () => undefined,
        (error: unknown) => `unreachable (${error instanceof Error && error.message ? error.message : "error"})`,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
