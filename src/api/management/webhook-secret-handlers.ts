import { rotateWebhookSecret } from "../../callbacks/rotate-webhook-secret.js";
import type { GatewayContext } from "../../gateway-context.js";
import type { OperationHandler } from "../../http/operation-handler.js";
import { getAuthenticatedUser } from "../../users/authenticated-request.js";
import { sendSuccess } from "./send-success.js";

export function createWebhookSecretHandlers(context: GatewayContext): Record<"rotateWebhookSecret", OperationHandler> {
  return {
    async rotateWebhookSecret(_request, response) {
      const secret = await rotateWebhookSecret(context, getAuthenticatedUser(response));
      response.setHeader("Cache-Control", "no-store");
      sendSuccess(response, { secret });
    },
  };
}
