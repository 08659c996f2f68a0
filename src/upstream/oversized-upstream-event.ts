import { UpstreamFailure } from "./upstream-failure.js";

/**
 * The largest upstream event held while it arrives, in characters where the stream is parsed as text and in bytes
 * in the native pass-through (the same for the ASCII of JSON and base64): native image streams carry each image
 * whole, base64, in one event (a few MiB to tens of MiB). An upstream that sends more without ending the event is
 * stopped there, instead of growing the gateway's memory for as long as it keeps sending.
 */
export const maximumUpstreamEventSize = 64 * 1024 * 1024;

/** The failure that stops a stream whose event grew past `limit` (in `unit`) without ending: a 502, not retried. */
export function oversizedUpstreamEventFailure(
  limit: number,
  unit: "characters" | "bytes",
  cause?: unknown,
): UpstreamFailure {
  return new UpstreamFailure(
    `The upstream sent an event larger than ${limit} ${unit}; the stream was stopped there.`,
    false,
    {
      status: 502,
      code: "bad_response",
      ...(cause === undefined ? {} : { cause }),
    },
  );
}
