import type { operations } from "../../../generated/types/management.js";
import type { GatewayContext } from "../../gateway-context.js";
import { completeHandlerMap } from "../../http/complete-handler-map.js";
import type { OperationHandlerMap } from "../../http/operation-handler.js";
import { pendingOperations } from "../../http/pending-operations.js";
import type { VideoTaskService } from "../../tasks/video-task-service.js";
import { createAuditHandlers } from "./audit-handlers.js";
import { createChannelHandlers } from "./channel-handlers.js";
import { createLogHandlers } from "./log-handlers.js";
import { createPricingHandlers } from "./pricing-handlers.js";
import { createTaskHandlers } from "./task-handlers.js";
import { createTokenHandlers } from "./token-handlers.js";
import { createUserHandlers } from "./user-handlers.js";
import { createWalletHandlers } from "./wallet-handlers.js";
import { createWebhookSecretHandlers } from "./webhook-secret-handlers.js";

export function createManagementHandlers(
  context: GatewayContext,
  videoTasks: VideoTaskService,
): OperationHandlerMap<operations> {
  return completeHandlerMap<operations, (typeof pendingOperations.management)[number]>(
    {
      ...createTokenHandlers(context),
      ...createUserHandlers(context),
      ...createLogHandlers(context),
      ...createChannelHandlers(context),
      ...createWebhookSecretHandlers(context),
      ...createWalletHandlers(context),
      ...createAuditHandlers(context),
      ...createPricingHandlers(context),
      ...createTaskHandlers(context, videoTasks),
    },
    pendingOperations.management,
  );
}
