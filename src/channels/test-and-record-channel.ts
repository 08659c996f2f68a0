import type { components } from "../../generated/types/management.js";
import { saveChannelLastTest } from "../store/channel-health/channel-last-test-queries.js";
import type { GatewayContext } from "../gateway-context.js";
import type { ChannelServicesContext } from "./channel-services-context.js";
import { testChannelUpstream } from "./test-channel-upstream.js";

type ChannelLastTest = components["schemas"]["ChannelLastTest"];

/** Tests a channel (see testChannelUpstream) and keeps the outcome as its last test, which outlives the process. */
export async function testAndRecordChannel(
  context: ChannelServicesContext & Pick<GatewayContext, "findAdapter">,
  channelId: number,
  model: string | undefined,
): Promise<ChannelLastTest> {
  const { upstreamStatus: _upstreamStatus, ...result } = await testChannelUpstream(context, channelId, model);
  const testedTime = context.now();
  await saveChannelLastTest(context.database.db, {
    channelId,
    success: result.success,
    latencyMs: result.latency_ms,
    model: result.model,
    message: result.message,
    testedTime,
  });
  return { ...result, tested_time: testedTime };
}
