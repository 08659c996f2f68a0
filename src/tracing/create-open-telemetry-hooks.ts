import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type Attributes,
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import type { AttemptTrace, TracingHooks } from "./tracing-hooks.js";

// The GenAI semantic conventions' operation names for our capabilities (others keep the capability's own name).
const operationNames = new Map<string, string>([
  ["chat", "chat"],
  ["responses", "chat"],
  ["messages", "chat"],
  ["nativeGeneration", "generate_content"],
  ["embeddings", "embeddings"],
  ["nativeEmbedding", "embeddings"],
]);

// gen_ai.provider.name's well-known values for our channel types (others keep the type's own name).
const providerNames = new Map<string, string>([
  ["openai", "openai"],
  ["anthropic", "anthropic"],
  ["native", "gcp.gemini"],
  ["vertex", "gcp.vertex_ai"],
  ["azure", "azure.ai.openai"],
  ["bedrock", "aws.bedrock"],
]);

/** The OTLP/HTTP traces URL as the specification builds it from the two variables (the signal path is appended to the generic one only). */
function tracesUrl(environment: NodeJS.ProcessEnv): string {
  const tracesEndpoint = environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (tracesEndpoint) return tracesEndpoint;
  return `${(environment.OTEL_EXPORTER_OTLP_ENDPOINT ?? "").replace(/\/+$/, "")}/v1/traces`;
}

interface TracedLocals {
  token?: { id?: number; userId?: number };
  user?: { id?: number };
}

/**
 * The OpenTelemetry side of TracingHooks: a NodeTracerProvider (AsyncLocalStorage context, W3C trace context
 * propagation) exporting in batches through OTLP over HTTP. Span attributes never hold a key: ids, names, routes and
 * the request path without its query only.
 */
export function createOpenTelemetryHooks(environment: NodeJS.ProcessEnv): TracingHooks {
  const resource = defaultResource()
    .merge(resourceFromAttributes({ "service.name": environment.OTEL_SERVICE_NAME || "ai-api-gateway" }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: tracesUrl(environment) }))],
  });
  provider.register();
  const tracer = trace.getTracer("ai-api-gateway");
  const requestSpans = new WeakMap<IncomingMessage, Span>();

  function endRequestSpan(request: IncomingMessage, response: ServerResponse, span: Span): void {
    const described = request as IncomingMessage & {
      requestId?: string;
      openapi?: { openApiRoute?: string; schema?: { operationId?: string } };
    };
    const route = described.openapi?.openApiRoute;
    const locals = (response as ServerResponse & { locals?: TracedLocals }).locals ?? {};
    const userId = locals.token?.userId ?? locals.user?.id;
    const attributes: Attributes = {
      "http.response.status_code": response.statusCode,
      ...(route ? { "http.route": route } : {}),
      ...(described.openapi?.schema?.operationId ? { "gateway.operation": described.openapi.schema.operationId } : {}),
      ...(described.requestId ? { "gateway.request_id": described.requestId } : {}),
      ...(locals.token?.id !== undefined ? { "gateway.token.id": locals.token.id } : {}),
      ...(userId !== undefined ? { "gateway.user.id": userId } : {}),
    };
    span.setAttributes(attributes);
    if (route) span.updateName(`${request.method} ${route}`);
    if (response.statusCode >= 500 || !response.writableFinished)
      span.setStatus({
        code: SpanStatusCode.ERROR,
        ...(response.writableFinished ? {} : { message: "client closed" }),
      });
    span.end();
  }

  return {
    onRequest(request, response) {
      const parent = propagation.extract(ROOT_CONTEXT, request.headers);
      const path = (request.url ?? "/").split("?")[0]!;
      const span = tracer.startSpan(
        request.method ?? "HTTP",
        {
          kind: SpanKind.SERVER,
          attributes: { "http.request.method": request.method ?? "", "url.path": path },
        },
        parent,
      );
      requestSpans.set(request, span);
      response.once("close", () => endRequestSpan(request, response, span));
    },

    startAttempt(request, response, details): AttemptTrace {
      const requestSpan = requestSpans.get(request);
      const parent = requestSpan ? trace.setSpan(context.active(), requestSpan) : context.active();
      const operationName = operationNames.get(details.capability) ?? details.capability;
      const span = tracer.startSpan(
        `${operationName} ${details.upstreamModel}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            "gen_ai.operation.name": operationName,
            "gen_ai.provider.name": providerNames.get(details.channelType) ?? details.channelType,
            "gen_ai.request.model": details.upstreamModel,
            "gateway.request.model": details.requestModel,
            "gateway.channel.id": details.channelId,
            "gateway.channel.name": details.channelName,
            "gateway.attempt": details.attemptNumber,
            "gateway.stream": details.isStream,
            ...(details.retryReason ? { "gateway.retry_reason": details.retryReason } : {}),
          },
        },
        parent,
      );
      const spanContext: Context = trace.setSpan(parent, span);
      const startedAt = performance.now();
      let firstChunkSeconds: number | undefined;
      // A stream's first byte to the client is its time to first token; only watched while tracing is on.
      let restoreWrite: (() => void) | undefined;
      if (details.isStream) {
        const hadOwnWrite = Object.hasOwn(response, "write");
        const originalWrite = response.write;
        restoreWrite = () => {
          if (hadOwnWrite) response.write = originalWrite;
          else delete (response as Partial<ServerResponse>).write;
        };
        response.write = function (this: ServerResponse, ...parts: unknown[]) {
          firstChunkSeconds ??= (performance.now() - startedAt) / 1000;
          restoreWrite?.();
          return (originalWrite as (...written: unknown[]) => boolean).apply(this, parts);
        } as ServerResponse["write"];
      }
      return {
        run: (attempt) => context.with(spanContext, attempt),
        end(outcome) {
          restoreWrite?.();
          const attributes: Attributes = {};
          if (outcome.inputTokens !== undefined) attributes["gen_ai.usage.input_tokens"] = outcome.inputTokens;
          if (outcome.outputTokens !== undefined) attributes["gen_ai.usage.output_tokens"] = outcome.outputTokens;
          if (!outcome.error) attributes["gen_ai.response.model"] = outcome.responseModel ?? details.upstreamModel;
          if (firstChunkSeconds !== undefined) attributes["gen_ai.response.time_to_first_chunk"] = firstChunkSeconds;
          if (outcome.error) {
            const failure = outcome.error as { code?: unknown; status?: unknown };
            attributes["error.type"] = typeof failure.code === "string" ? failure.code : "error";
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
          span.setAttributes(attributes);
          span.end();
        },
      };
    },

    async traceUpstreamCall(details, headers, send) {
      const span = tracer.startSpan(`${details.method}`, {
        kind: SpanKind.CLIENT,
        attributes: {
          "http.request.method": details.method,
          "url.path": details.path.split("?")[0]!,
          "gateway.channel.name": details.channelName,
        },
      });
      const spanContext = trace.setSpan(context.active(), span);
      const carried = { ...headers };
      propagation.inject(spanContext, carried);
      try {
        const answer = await context.with(spanContext, () => send(carried));
        span.setAttribute("http.response.status_code", answer.statusCode);
        if (answer.statusCode >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
        return answer;
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute("error.type", (error as { code?: string }).code ?? "transport");
        throw error;
      } finally {
        span.end();
      }
    },

    async traceTaskPoll(details, poll) {
      const span = tracer.startSpan("video_task poll", {
        kind: SpanKind.INTERNAL,
        attributes: {
          "gateway.task.id": details.taskId,
          "gateway.channel.id": details.channelId,
          "gen_ai.request.model": details.model,
        },
      });
      try {
        const result = await context.with(trace.setSpan(context.active(), span), poll);
        const status = (result as { status?: unknown } | undefined)?.status;
        if (typeof status === "string") span.setAttribute("gateway.task.status", status);
        return result;
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },

    async shutdown() {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}
