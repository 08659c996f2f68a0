import { UpstreamFailure } from "../../upstream/upstream-failure.js";
import type { ImageFamilyName } from "../contract/image-family-rules.js";

/**
 * A channel whose protocol does not speak the request's image family (an operator listed an `img-b-` model on a
 * native channel, say) cannot serve it: a retryable 503, so the relay tries the next channel, and the log names it.
 */
export function assertFamilyServed(
  family: ImageFamilyName,
  served: readonly ImageFamilyName[],
  channelType: string,
): void {
  if (served.includes(family)) return;
  throw new UpstreamFailure(
    `A ${channelType} channel cannot serve the ${family} image family; list the model on a channel of its provider's type.`,
    true,
    { status: 503, code: "bad_response" },
  );
}
