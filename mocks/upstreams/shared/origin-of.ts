import type { FakeExchange } from "./fake-exchange.js";

/** http://127.0.0.1:PORT as the client reached the fake: where its hosted results live. */
export function originOf(exchange: FakeExchange): string {
  return `http://${exchange.request.headers.host ?? "127.0.0.1"}`;
}
