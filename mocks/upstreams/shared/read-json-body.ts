import type { FakeExchange } from "./fake-exchange.js";

/** The request's JSON body whatever the content type said, or undefined when it is not JSON. */
export function readJsonBody(exchange: FakeExchange): unknown {
  const { value, invalidJson } = exchange.body;
  if (invalidJson) return undefined;
  if (!Buffer.isBuffer(value)) return value;
  try {
    return JSON.parse(value.toString("utf8"));
  } catch {
    return undefined;
  }
}
