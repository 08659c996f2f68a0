import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { createFaultSchedule } from "./create-fault-schedule.js";
import type { FakeExchange } from "./fake-exchange.js";
import type { FakeUpstream } from "./fake-upstream.js";
import type { FaultPlan } from "./fault-plan.js";
import { InvalidFaultHeaderError, parseFaultHeader } from "./parse-fault-header.js";
import { readRequestBody } from "./read-request-body.js";
import type { RecordedRequest } from "./recorded-request.js";

export interface FakeUpstreamServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  now?: () => number;
  /** Answers one request after the pre-header faults passed. */
  handle(exchange: FakeExchange): Promise<void>;
  /** The protocol's error envelope, used for injected statuses and for handler crashes. */
  renderErrorBody(status: number, message?: string): object;
  /** Clears protocol state (stored objects, id counters) on `reset()`. */
  onReset?(): void;
}

/** The protocol-independent part of every fake upstream: listening, recording, fault injection. */
export async function startFakeUpstreamServer(options: FakeUpstreamServerOptions): Promise<FakeUpstream> {
  const now = options.now ?? Date.now;
  const requests: RecordedRequest[] = [];
  const schedule = createFaultSchedule();
  let closing = false;

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const record: RecordedRequest = {
      method: request.method ?? "GET",
      path: request.url ?? "/",
      headers: request.headers,
      body: undefined,
      receivedAt: now(),
      aborted: false,
    };
    requests.push(record);
    let resetByFault = false;
    response.on("close", () => {
      if (!response.writableFinished && !resetByFault && !closing) record.aborted = true;
    });

    const body = await readRequestBody(request);
    record.body = body.value;

    const sendError = (status: number, payload: object, headers: Record<string, string> = {}) => {
      if (response.destroyed || response.headersSent) return;
      const text = JSON.stringify(payload);
      response.writeHead(status, {
        ...headers,
        "content-type": "application/json",
        "content-length": Buffer.byteLength(text),
      });
      response.end(text);
    };

    let faults: FaultPlan;
    try {
      // A per-request header plan wins and leaves the programmatic plan's `times` untouched.
      faults = parseFaultHeader(request.headers["x-fake-fault"]) ?? schedule.take();
    } catch (error) {
      if (!(error instanceof InvalidFaultHeaderError)) throw error;
      sendError(400, options.renderErrorBody(400, error.message));
      return;
    }

    const exchange: FakeExchange = {
      request,
      response,
      url: new URL(request.url ?? "/", "http://127.0.0.1"),
      body,
      record,
      faults,
      resetConnection() {
        resetByFault = true;
        request.socket.destroy();
      },
      now,
    };

    if (faults.latencyMs) await delay(faults.latencyMs);
    if (response.destroyed) return;
    if (faults.resetBeforeHeaders) {
      exchange.resetConnection();
      return;
    }
    if (faults.status !== undefined) {
      const headers: Record<string, string> = {};
      if (faults.retryAfterSeconds !== undefined) headers["retry-after"] = String(faults.retryAfterSeconds);
      sendError(faults.status, faults.body ?? options.renderErrorBody(faults.status), headers);
      return;
    }

    try {
      await options.handle(exchange);
    } catch (error) {
      if (response.headersSent) {
        exchange.resetConnection();
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      sendError(500, options.renderErrorBody(500, `Fake upstream crashed: ${message}`));
    }
  }

  const server = createServer((request, response) => {
    serve(request, response).catch(() => request.socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    setFaults(faults) {
      schedule.set(faults);
    },
    reset() {
      requests.length = 0;
      schedule.clear();
      options.onReset?.();
    },
    async close() {
      closing = true;
      // Stalled streams and keep-alive sockets would otherwise hold close() open forever.
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
