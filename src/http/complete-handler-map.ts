import { GatewayError } from "../errors/gateway-error.js";
import type { OperationHandler, OperationHandlerMap } from "./operation-handler.js";

/**
 * Joins the implemented handlers with 501 answers for the pending ones. The parameter types demand a handler for
 * every operation that is not pending, so a new operation in a spec without a handler fails the build.
 */
export function completeHandlerMap<Operations, Pending extends keyof Operations & string>(
  implemented: { [OperationId in Exclude<keyof Operations, Pending>]: OperationHandler },
  pending: readonly Pending[],
): OperationHandlerMap<Operations> {
  const handlers: Record<string, OperationHandler> = { ...(implemented as Record<string, OperationHandler>) };
  for (const operationId of pending) {
    handlers[operationId] = () => {
      throw new GatewayError(`Operation ${operationId} is not implemented yet.`, {
        status: 501,
        code: "not_implemented",
      });
    };
  }
  return handlers as OperationHandlerMap<Operations>;
}
