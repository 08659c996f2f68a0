import type { CallbackDeliverer } from "../../callbacks/create-callback-deliverer.js";
import type { Logger } from "../../logging/logger.js";
import type { ChannelHealthTransition } from "./channel-health.js";

/**
 * Sends each health transition to the operator's `channel_health.webhook_url`, signed like task callbacks (the same
 * deliverer: `X-Signature-Timestamp`, `X-Signature: sha256=` HMAC of `<timestamp>.<body>` with the configured
 * secret, addresses checked where they are dialled). One try: the transition is also a metric and a log line, and
 * the channel's state is in the admin API, so a missed notice loses no state.
 */
export function createHealthWebhookNotifier(
  webhook: { url: string; secret: string } | undefined,
  deliverer: CallbackDeliverer,
  logger: Logger,
): (transition: ChannelHealthTransition) => Promise<void> {
  if (!webhook) return async () => {};
  return async (transition) => {
    const body = JSON.stringify({
      type: "channel.health",
      channel_id: transition.channelId,
      channel_name: transition.channelName,
      key_index: transition.keyIndex ?? null,
      from: transition.from,
      to: transition.to,
      reason: transition.reason,
      upstream_status: transition.upstreamStatus,
      time: transition.time,
    });
    const outcome = await deliverer.tryOnce({
      taskId: `channel-${transition.channelId}`,
      url: webhook.url,
      body,
      secret: webhook.secret,
    });
    if (!outcome.succeeded) {
      logger.warn(
        { channelId: transition.channelId, statusCode: outcome.statusCode, error: outcome.errorMessage },
        "the channel health webhook did not accept a transition",
      );
    }
  };
}
