import http from "node:http";
import type { BenchTarget } from "./start-bench-servers.js";

/**
 * One JSON POST to a bench target through `agent` (keep-alive), its body sent at once: `onResponse` gets the answer
 * as `http.request` hands it over, `onError` a request that failed before any answer.
 */
export function postJsonToTarget(options: {
  target: BenchTarget;
  path: string;
  body: string;
  agent: http.Agent;
  accept?: string;
  onResponse(response: http.IncomingMessage): void;
  onError(): void;
}): void {
  const url = new URL(`${options.target.url}${options.path}`);
  const request = http.request(
    {
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: "POST",
      agent: options.agent,
      headers: {
        ...options.target.headers,
        "content-type": "application/json",
        ...(options.accept === undefined ? {} : { accept: options.accept }),
      },
    },
    options.onResponse,
  );
  request.on("error", options.onError);
  request.end(options.body);
}
