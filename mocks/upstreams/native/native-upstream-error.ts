/** An error the fake answers with in the native envelope `{error{code, message, status}}`. */
export class NativeUpstreamError extends Error {
  readonly httpStatus: number;
  readonly status: string;
  readonly details: unknown[] | undefined;

  constructor(httpStatus: number, message: string, details?: unknown[]) {
    super(message);
    this.name = "NativeUpstreamError";
    this.httpStatus = httpStatus;
    this.status = mapHttpStatusToRpcStatus(httpStatus);
    this.details = details;
  }

  toEnvelope(): { error: { code: number; message: string; status: string; details?: unknown[] } } {
    return {
      error: {
        code: this.httpStatus,
        message: this.message,
        status: this.status,
        ...(this.details ? { details: this.details } : {}),
      },
    };
  }
}

/** The canonical RPC status names the native API puts next to the HTTP code. */
export function mapHttpStatusToRpcStatus(httpStatus: number): string {
  switch (httpStatus) {
    case 400:
      return "INVALID_ARGUMENT";
    case 401:
      return "UNAUTHENTICATED";
    case 403:
      return "PERMISSION_DENIED";
    case 404:
      return "NOT_FOUND";
    case 409:
      return "ABORTED";
    case 429:
      return "RESOURCE_EXHAUSTED";
    case 499:
      return "CANCELLED";
    case 501:
      return "NOT_IMPLEMENTED";
    case 503:
      return "UNAVAILABLE";
    case 504:
      return "DEADLINE_EXCEEDED";
    default:
      return httpStatus >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
  }
}
