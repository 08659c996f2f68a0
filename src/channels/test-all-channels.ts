import type { components } from "../../generated/types/management.js";
import { listAllChannels } from "../store/channels/list-all-channels.js";
import type { GatewayContext } from "../gateway-context.js";
import type { ChannelServicesContext } from "./channel-services-context.js";
import { testAndRecordChannel } from "./test-and-record-channel.js";

type ChannelTestAllResult = components["schemas"]["ChannelTestAllResult"];

/**
 * Tests every channel that lists a model, `channel_health.test_concurrency` at a time (a gateway with hundreds of
 * channels must not open hundreds of upstream calls at once), recording each outcome. A channel that cannot be
 * tested (keys under another secret, a type this build lacks) is an outcome too, not a failure of the run.
 */
export async function testAllChannels(
  context: ChannelServicesContext & Pick<GatewayContext, "findAdapter">,
): Promise<ChannelTestAllResult[]> {
  const channels = (await listAllChannels(context.database.db))
    .filter((channel) => channel.models.length > 0)
    .sort((left, right) => left.id - right.id);
  const results: ChannelTestAllResult[] = new Array(channels.length);
  let next = 0;
  const worker = async () => {
    while (next < channels.length) {
      const position = next;
      next += 1;
      const channel = channels[position]!;
      try {
        results[position] = { channel_id: channel.id, ...(await testAndRecordChannel(context, channel.id, undefined)) };
      } catch (error) {
        results[position] = {
          channel_id: channel.id,
          success: false,
          latency_ms: 0,
          model: channel.models[0]!,
          message: error instanceof Error ? error.message : String(error),
          tested_time: context.now(),
        };
      }
    }
  };
  const workers = Math.min(context.config.channelHealth.testConcurrency, channels.length);
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}
