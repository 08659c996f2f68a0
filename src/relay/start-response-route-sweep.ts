import type { GatewayContext } from "../gateway-context.js";
import { deleteResponseRoutesBefore } from "../store/response-routes/response-route-queries.js";
import { oldestFollowedRoute } from "./response-routes.js";

export interface ResponseRouteSweep {
  /** Stops the timer and waits for a sweep under way. */
  stop(): Promise<void>;
}

/**
 * Routes past their retention are never followed (the lookup skips them); this deletes them, at start and then
 * every `intervalMs`, so the table holds about one retention period of Responses calls. Any instance may sweep:
 * the delete is idempotent.
 */
export function startResponseRouteSweep(
  context: Pick<GatewayContext, "config" | "now" | "database" | "logger">,
  options: { intervalMs: number },
): ResponseRouteSweep {
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = (async () => {
      try {
        const deleted = await deleteResponseRoutesBefore(context.database.db, oldestFollowedRoute(context));
        if (deleted > 0) context.logger.info({ deleted }, "deleted response routes past their retention");
      } catch (error) {
        context.logger.error({ err: error }, "response route sweep failed");
      }
    })();
  };
  sweep();
  const timer = setInterval(sweep, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
