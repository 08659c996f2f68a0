import type { GatewayContext } from "../gateway-context.js";
import { insertCallbackDelivery } from "../store/callback-deliveries/insert-callback-delivery.js";
import type { TaskRecord } from "../store/tasks/task-record.js";
import { findWebhookSecret } from "../store/webhook-secrets/find-webhook-secret.js";
import { renderVideoTaskDetail } from "../tasks/render/render-video-task-detail.js";
import type { CallbackDeliverer } from "./create-callback-deliverer.js";

export interface TaskCallbackSender {
  /** Starts delivering a finished task's callback, if it has one; never throws, never waits for the receiver. */
  send(task: TaskRecord): void;
  /** Waits for the deliveries under way (after the deliverer was closed they end at once). */
  drain(): Promise<void>;
}

/**
 * Called once per task by the winner of its terminal transition: POSTs the task's wrapped query answer to the
 * client's `metadata.callback_url`, signed with the user's secret. A user without a secret gets no callback, and the
 * task shows why (one delivery row), so the omission is visible rather than silent.
 */
export function createTaskCallbackSender(context: GatewayContext, deliverer: CallbackDeliverer): TaskCallbackSender {
  const pending = new Set<Promise<unknown>>();

  async function deliver(task: TaskRecord, url: string): Promise<void> {
    const stored = await findWebhookSecret(context.database.db, task.userId);
    if (stored === undefined) {
      await insertCallbackDelivery(context.database.db, {
        taskId: task.id,
        attempt: 1,
        statusCode: null,
        errorMessage: "not sent: the user has no signing secret (create one with POST /api/user/self/webhook-secret)",
        succeeded: false,
        createdTime: context.now(),
      });
      return;
    }
    await deliverer.deliver({
      taskId: task.id,
      url,
      body: JSON.stringify(renderVideoTaskDetail(task)),
      secret: context.keyCipher.decrypt(stored),
    });
  }

  return {
    send(task) {
      const request = task.requestBody as { callback_url?: unknown } | null;
      if (typeof request?.callback_url !== "string") return;
      const delivery = deliver(task, request.callback_url).catch((error: unknown) =>
        context.logger.warn({ taskId: task.id, err: (error as Error).message }, "task callback could not be sent"),
      );
      pending.add(delivery);
      void delivery.finally(() => pending.delete(delivery));
    },
    async drain() {
      await Promise.allSettled([...pending]);
    },
  };
}
