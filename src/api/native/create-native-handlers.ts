import type { operations } from "../../../generated/types/native.js";
import type { GatewayContext } from "../../gateway-context.js";
import { completeHandlerMap } from "../../http/complete-handler-map.js";
import type { OperationHandlerMap } from "../../http/operation-handler.js";
import { pendingOperations } from "../../http/pending-operations.js";
import { createNativeOperationHandlers } from "./native-handlers.js";

export function createNativeHandlers(context: GatewayContext): OperationHandlerMap<operations> {
  return completeHandlerMap<operations, (typeof pendingOperations.native)[number]>(
    { ...createNativeOperationHandlers(context) },
    pendingOperations.native,
  );
}
