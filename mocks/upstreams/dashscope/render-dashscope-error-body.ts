import { randomUUID } from "node:crypto";

const codesByStatus = new Map<number, string>([
  [400, "InvalidParameter"],
  [401, "InvalidApiKey"],
  [403, "AccessDenied"],
  [404, "ModelNotFound"],
  [429, "Throttling.RateQuota"],
]);

/** DashScope's envelope, `{code, message, request_id}`. */
export function renderDashscopeErrorBody(status: number, message?: string, code?: string): object {
  return {
    code: code ?? codesByStatus.get(status) ?? "InternalError",
    message:
      message ??
      (status === 429
        ? "Requests rate limit exceeded, please try again later."
        : "An internal error has occured, please try again later or contact service support."),
    request_id: randomUUID(),
  };
}
