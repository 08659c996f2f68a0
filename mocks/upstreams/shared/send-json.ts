import type { OutgoingHttpHeaders } from "node:http";
import type { FakeExchange } from "./fake-exchange.js";
import { sendBody } from "./send-body.js";

export function sendJson(
  exchange: FakeExchange,
  status: number,
  value: unknown,
  headers: OutgoingHttpHeaders = {},
): Promise<void> {
  return sendBody(exchange, status, "application/json", JSON.stringify(value), headers);
}
