import type { IncomingMessage, ServerResponse } from "node:http";
import type { Counter, Histogram } from "prom-client";
import type { ApiGeneration } from "../http/api-generation.js";
import type { RequestIds } from "../http/request-ids.js";
import type { GatewayMetrics } from "./gateway-metrics.js";

type ObservedRequest = IncomingMessage &
  RequestIds & {
    observedGeneration?: ApiGeneration;
    observedSince?: number;
    openapi?: { schema?: { operationId?: string } };
  };

const statusClasses = ["1xx", "1xx", "2xx", "3xx", "4xx", "5xx"];
const clientClosedClass = "client_closed";

/**
 * Counts each answered API request and times it. The labelled children are looked up through nested maps of
 * the (bounded) label values, so the hot path builds no label object or key string per request, and the finish
 * listener is one shared function, not a closure per request.
 */
export function createRequestObserver(
  metrics: Pick<GatewayMetrics, "requests" | "requestDuration">,
): (request: IncomingMessage, response: ServerResponse, generation: ApiGeneration) => void {
  const counters = new Map<string, Map<string, Map<string, Map<string, Counter.Internal>>>>();
  const timers = new Map<string, Map<string, Histogram.Internal<"generation" | "operation">>>();

  function recordFinishedRequest(this: ServerResponse): void {
    const request = this.req as ObservedRequest;
    const generation = request.observedGeneration!;
    const operation = request.openapi?.schema?.operationId ?? "unmatched";
    const model = request.metricsModel ?? "none";
    // A client that left before its answer was complete was not answered at all, whatever status was set by then.
    const statusClass = this.writableFinished
      ? (statusClasses[Math.min(5, Math.floor(this.statusCode / 100))] ?? "5xx")
      : clientClosedClass;
    let byOperation = counters.get(generation);
    if (!byOperation) {
      byOperation = new Map();
      counters.set(generation, byOperation);
    }
    let byModel = byOperation.get(operation);
    if (!byModel) {
      byModel = new Map();
      byOperation.set(operation, byModel);
    }
    let byStatus = byModel.get(model);
    if (!byStatus) {
      byStatus = new Map();
      byModel.set(model, byStatus);
    }
    let counter = byStatus.get(statusClass);
    if (!counter) {
      counter = metrics.requests.labels({ generation, operation, model, status_class: statusClass });
      byStatus.set(statusClass, counter);
    }
    counter.inc();
    let timersByOperation = timers.get(generation);
    if (!timersByOperation) {
      timersByOperation = new Map();
      timers.set(generation, timersByOperation);
    }
    let timer = timersByOperation.get(operation);
    if (!timer) {
      timer = metrics.requestDuration.labels({ generation, operation });
      timersByOperation.set(operation, timer);
    }
    timer.observe((performance.now() - request.observedSince!) / 1000);
  }

  return (request, response, generation) => {
    const observed = request as ObservedRequest;
    observed.observedGeneration = generation;
    observed.observedSince = performance.now();
    // "close" comes after "finish", and also when the client leaves first (a stream it aborted counts too).
    response.on("close", recordFinishedRequest);
  };
}
