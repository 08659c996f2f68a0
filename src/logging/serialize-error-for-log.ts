/** What a log line says about an error: nothing the error carries beyond what is meant for an operator. */
export interface LoggedError {
  type: string;
  message: string;
  code?: string | number;
  status?: number;
  requestId?: string;
  /** Only for faults the gateway did not raise on purpose (a bug's stack is what finds it). */
  stack?: string;
  cause?: LoggedError | string;
}

const maximumCauseDepth = 3;

/**
 * The logger's `err` serialiser. Errors carry payloads a log must never see (an upstream's answer body, request
 * options with headers, a client's values), and pino's own serialiser copies every enumerable property; this one
 * writes the message, code, status and request id, the stack of unexpected faults, and the cause the same way.
 * An error the gateway raised on purpose (it has a `status`) is known by its message; its stack says nothing new.
 */
export function serializeErrorForLog(value: unknown, depth = 0): LoggedError | string {
  if (typeof value === "string") return value;
  if (value === null || typeof value !== "object") return String(value);
  const error = value as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
    status?: unknown;
    requestId?: unknown;
    stack?: unknown;
    cause?: unknown;
  };
  const logged: LoggedError = {
    type: typeof error.name === "string" ? error.name : "Error",
    message: typeof error.message === "string" ? error.message : "",
  };
  if (typeof error.code === "string" || typeof error.code === "number") logged.code = error.code;
  if (typeof error.status === "number") logged.status = error.status;
  if (typeof error.requestId === "string") logged.requestId = error.requestId;
  if (logged.status === undefined && typeof error.stack === "string") logged.stack = error.stack;
  if (error.cause !== undefined && depth < maximumCauseDepth)
    logged.cause = serializeErrorForLog(error.cause, depth + 1);
  return logged;
}
