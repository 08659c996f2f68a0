import type { TestGateway } from "./start-test-gateway.js";

/**
 * Closes every channel's circuit breaker (a success clears its failure count), so the failures one test injects do
 * not leave a channel cooling down, and so refused at once, for the next test.
 */
export function closeChannelBreakers(gateway: TestGateway, highestChannelId = 50): void {
  for (let channelId = 1; channelId <= highestChannelId; channelId += 1)
    gateway.gateway.context.channelRouter.reportSuccess(channelId);
}
