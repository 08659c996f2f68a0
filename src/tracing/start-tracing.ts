import type { Logger } from "../logging/logger.js";
import { installTracing, type TracingHooks } from "./tracing-hooks.js";

/**
 * Turns OpenTelemetry tracing on when the standard variables ask for it: `OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` set, and `OTEL_SDK_DISABLED` not `true`; the exporter reads the other OTEL_*
 * variables itself (headers, timeout, `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`). Spans go out as OTLP over
 * HTTP (JSON). Off, nothing of OpenTelemetry is imported. Tracing is the process's (OpenTelemetry's providers are
 * global), so the entry point starts it once, before the gateway.
 */
export async function startTracing(environment: NodeJS.ProcessEnv, logger: Logger): Promise<TracingHooks | undefined> {
  const endpoint = environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || environment.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint || environment.OTEL_SDK_DISABLED === "true") return undefined;
  const { createOpenTelemetryHooks } = await import("./create-open-telemetry-hooks.js");
  const hooks = createOpenTelemetryHooks(environment);
  installTracing(hooks);
  logger.info({ endpoint: new URL(endpoint).origin }, "OpenTelemetry tracing on");
  return {
    ...hooks,
    async shutdown() {
      installTracing(undefined);
      await hooks.shutdown();
    },
  };
}
