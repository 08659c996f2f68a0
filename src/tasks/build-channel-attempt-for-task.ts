import type { ChannelRouter } from "../channels/channel-router.js";
import type { ChannelAttempt } from "../providers/contract/channel-attempt.js";
import type { TaskRecord } from "../store/tasks/task-record.js";

/**
 * The attempt that reaches a task's upstream again: the channel that accepted it, with the key that submitted it
 * (the upstream task lives under that account). Undefined when the channel is gone or disabled.
 */
export function buildChannelAttemptForTask(
  channelRouter: Pick<ChannelRouter, "findChannel">,
  task: Pick<TaskRecord, "channelId" | "keyIndex" | "billingGroup" | "upstreamModel" | "model">,
): ChannelAttempt | undefined {
  if (task.channelId === null) return undefined;
  const channel = channelRouter.findChannel(task.channelId);
  if (channel === undefined || channel.keys.length === 0) return undefined;
  return {
    channel,
    group: task.billingGroup,
    upstreamModel: task.upstreamModel ?? task.model,
    upstreamKey: channel.keys[task.keyIndex % channel.keys.length]!,
  };
}
