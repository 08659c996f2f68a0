import type { FakeExchange } from "./fake-exchange.js";

/**
 * One route of a fake provider: method, a path pattern (its groups go to the handler) and the handler. A fake's
 * router is a list of these, one file per route, so another capability adds a file and a list entry.
 */
export interface FakeRoute<State> {
  method: "GET" | "POST" | "DELETE";
  path: RegExp;
  handle(exchange: FakeExchange, state: State, match: RegExpExecArray): Promise<void>;
}
