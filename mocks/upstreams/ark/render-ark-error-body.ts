const typesByStatus = new Map<number, string>([
  [400, "BadRequest"],
  [401, "Unauthorized"],
  [403, "Forbidden"],
  [404, "NotFound"],
  [429, "TooManyRequests"],
]);

const codesByStatus = new Map<number, string>([
  [400, "InvalidParameter"],
  [401, "AuthenticationError"],
  [403, "AccessDenied"],
  [404, "InvalidEndpoint.NotFound"],
  [429, "RateLimitExceeded.EndpointRPMExceeded"],
]);

let requestCounter = 0;

/** ARK's envelope; its messages end with the request id, as the real ones do. */
export function renderArkErrorBody(status: number, message?: string, code?: string, param = ""): object {
  requestCounter += 1;
  const requestId = `0217${String(requestCounter).padStart(12, "0")}`;
  return {
    error: {
      code: code ?? codesByStatus.get(status) ?? (status >= 500 ? "InternalServiceError" : "InvalidParameter"),
      message: `${message ?? (status >= 500 ? "The service encountered an unexpected internal error." : "The request failed.")} Request id: ${requestId}`,
      param,
      type: typesByStatus.get(status) ?? "InternalServerError",
    },
  };
}
