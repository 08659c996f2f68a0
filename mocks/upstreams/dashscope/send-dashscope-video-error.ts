import type { FakeExchange } from "../shared/fake-exchange.js";
import { sendJson } from "../shared/send-json.js";

/** DashScope's synchronous error envelope `{code, message, request_id}`. */
export function sendDashscopeVideoError(
  exchange: FakeExchange,
  status: number,
  code: string,
  message: string,
): Promise<void> {
  return sendJson(exchange, status, { code, message, request_id: `req-${exchange.now()}` });
}
