import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * What the request path asks of tracing. The gateway's code depends on this interface only; the OpenTelemetry
 * implementation (create-open-telemetry-hooks.ts) is imported dynamically by startTracing when an OTLP endpoint is
 * configured, so a gateway without tracing never loads a module of OpenTelemetry and pays one `undefined` check
 * per hook.
 */
export interface TracingHooks {
  /** Starts the request's server span (its parent from the client's `traceparent`); it ends with the answer. */
  onRequest(request: IncomingMessage, response: ServerResponse): void;
  /** One relay attempt: a child span of the request's span, carrying the GenAI attributes. */
  startAttempt(request: IncomingMessage, response: ServerResponse, details: AttemptDetails): AttemptTrace;
  /**
   * One upstream HTTP call, a child span of the current attempt or task poll; `headers` gets the `traceparent` of
   * that span, so the upstream continues the trace.
   */
  traceUpstreamCall<Answer extends { statusCode: number }>(
    details: UpstreamCallDetails,
    headers: Record<string, string>,
    send: (headers: Record<string, string>) => Promise<Answer>,
  ): Promise<Answer>;
  /** One poll of an asynchronous task (by the poller or a client's query), its upstream call a child span. */
  traceTaskPoll<Result>(details: TaskPollDetails, poll: () => Promise<Result>): Promise<Result>;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

export interface AttemptDetails {
  /** The relay capability (chat, responses, embeddings, nativeGeneration, …). */
  capability: string;
  channelId: number;
  channelName: string;
  channelType: string;
  /** The model the client named, and the one sent upstream after the channel's mapping. */
  requestModel: string;
  upstreamModel: string;
  isStream: boolean;
  /** 1 for the first attempt. */
  attemptNumber: number;
  /** Why the previous attempt was left (its error code and status), for a retry. */
  retryReason?: string;
}

export interface AttemptTrace {
  /** Runs the attempt with its span current, so the upstream call's span is its child. */
  run<Result>(attempt: () => Promise<Result>): Promise<Result>;
  end(outcome: AttemptOutcome): void;
}

export interface AttemptOutcome {
  error?: unknown;
  inputTokens?: number;
  outputTokens?: number;
  /** The model the upstream says answered, when the answer named it. */
  responseModel?: string;
}

export interface UpstreamCallDetails {
  method: string;
  channelName: string;
  /** The request path after the base URL, without its query (a key may ride in a query). */
  path: string;
}

export interface TaskPollDetails {
  taskId: string;
  channelId: number;
  model: string;
}

let active: TracingHooks | undefined;

/** The tracing hooks when tracing is on; undefined otherwise (the request path then skips tracing entirely). */
export function activeTracing(): TracingHooks | undefined {
  return active;
}

export function installTracing(hooks: TracingHooks | undefined): void {
  active = hooks;
}
