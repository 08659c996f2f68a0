import type { FakeExchange } from "./fake-exchange.js";
import type { FakeRoute } from "./fake-route.js";

/** The first route matching the request's method and path (a trailing slash ignored), with its match. */
export function findFakeRoute<State>(
  routes: ReadonlyArray<FakeRoute<State>>,
  exchange: FakeExchange,
): { route: FakeRoute<State>; match: RegExpExecArray } | undefined {
  const method = exchange.request.method ?? "GET";
  const path = exchange.url.pathname.replace(/\/+$/, "");
  for (const route of routes) {
    if (route.method !== method) continue;
    const match = route.path.exec(path);
    if (match) return { route, match };
  }
  return undefined;
}
