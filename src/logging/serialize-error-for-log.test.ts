import { describe, expect, it } from "vitest";
import { GatewayError } from "../errors/gateway-error.js";
import { createLogger } from "./logger.js";
import { serializeErrorForLog } from "./serialize-error-for-log.js";

class PayloadError extends GatewayError {
  readonly upstreamAnswer = { statusCode: 401, bodyText: "Incorrect API key provided: upstream-secret-value" };
  readonly requestId = "req_0123";
}

describe("serializeErrorForLog", () => {
  it("writes message, code, status and request id, never the error's own payload", () => {
    const error = new PayloadError("Upstream error (401): bad key", { status: 502, code: "upstream_error" });
    const logged = serializeErrorForLog(error);
    expect(logged).toEqual({
      type: "PayloadError",
      message: "Upstream error (401): bad key",
      code: "upstream_error",
      status: 502,
      requestId: "req_0123",
    });
    expect(JSON.stringify(logged)).not.toContain("upstream-secret-value");
  });

  it("keeps the stack of an unexpected fault and writes causes the same way", () => {
    const cause = Object.assign(new Error("socket hang up"), { code: "ECONNRESET", options: { headers: "x" } });
    const logged = serializeErrorForLog(new Error("relay failed", { cause })) as { stack?: string; cause?: unknown };
    expect(logged.stack).toContain("relay failed");
    expect(logged.cause).toMatchObject({ type: "Error", message: "socket hang up", code: "ECONNRESET" });
    expect(JSON.stringify(logged.cause)).not.toContain("headers");
  });

  it("is the logger's err serialiser", async () => {
    const lines: string[] = [];
    const original = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => {
      lines.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    try {
      const logger = createLogger({ level: "debug" });
      logger.error({ err: new PayloadError("failed", { status: 502, code: "upstream_error" }) }, "failed");
      logger.flush();
    } finally {
      process.stdout.write = original;
    }
    const line = lines.join("");
    expect(line).toContain('"message":"failed"');
    expect(line).not.toContain("upstream-secret-value");
    expect(line).not.toContain("bodyText");
  });
});
