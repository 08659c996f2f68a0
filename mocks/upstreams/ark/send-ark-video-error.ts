import type { FakeExchange } from "../shared/fake-exchange.js";
import { sendJson } from "../shared/send-json.js";

const types = new Map([
  [400, "BadRequest"],
  [401, "Unauthorized"],
  [404, "NotFound"],
  [429, "TooManyRequests"],
]);

/** ARK's error envelope `{error: {code, message, param, type}}`; messages end with the request id, as ARK's do. */
export function sendArkVideoError(
  exchange: FakeExchange,
  status: number,
  code: string,
  message: string,
  param = "",
): Promise<void> {
  const type = types.get(status) ?? "InternalServiceError";
  return sendJson(exchange, status, {
    error: { code, message: `${message} Request id: 0217${exchange.now()}fake`, param, type },
  });
}
