import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import { responseLeakFilePrefix } from "./scan-logs-for-keys.js";

const keyShape = /(?<![A-Za-z0-9])(?:sk-)?[A-Za-z0-9]{48}(?![A-Za-z0-9])/;
// The two endpoints whose answers are keys by design.
const keyEndpoints = [/^\/api\/token\/\d+\/key$/, /^\/api\/token\/batch\/keys$/];

/**
 * Watches every answer of a test gateway's server: a body (other than the two key endpoints') that carries a full
 * API key of ours or one of `channelKeys` is recorded, by method, path and status only, in a file the global
 * teardown reports (scan-logs-for-keys.ts). Bodies are scanned as they are written, streams included.
 */
export function tapResponsesForKeys(server: http.Server, folder: string, channelKeys: readonly string[]): void {
  const file = path.join(folder, `${responseLeakFilePrefix}${process.pid}.txt`);
  server.prependListener("request", (request: http.IncomingMessage, response: http.ServerResponse) => {
    const pathname = (request.url ?? "").split("?")[0] ?? "";
    if (keyEndpoints.some((pattern) => pattern.test(pathname))) return;
    const check = (chunk: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === "function") return;
      const text = typeof chunk === "string" ? chunk : Buffer.isBuffer(chunk) ? chunk.toString("utf8") : "";
      const leaked = keyShape.test(text) || channelKeys.some((key) => text.includes(key));
      if (leaked) fs.appendFileSync(file, `${request.method} ${pathname.slice(0, 100)} ${response.statusCode}\n`);
    };
    const write = response.write.bind(response) as (...parts: unknown[]) => boolean;
    const end = response.end.bind(response) as (...parts: unknown[]) => http.ServerResponse;
    response.write = ((...parts: unknown[]) => {
      check(parts[0]);
      return write(...parts);
    }) as typeof response.write;
    response.end = ((...parts: unknown[]) => {
      check(parts[0]);
      return end(...parts);
    }) as typeof response.end;
  });
}
