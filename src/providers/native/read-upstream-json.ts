import type { Dispatcher } from "undici";
import { UpstreamFailure } from "../../relay/upstream-failure.js";

/**
 * A 2xx upstream body parsed as JSON. A body that breaks off or is not JSON is the upstream's fault and nothing
 * reached the client yet, so it is a retryable 502 (another channel may answer properly).
 */
export async function readUpstreamJson(body: Dispatcher.ResponseData["body"], signal: { readonly aborted: boolean }): Promise<unknown> {
  let text: string;
  try {
    text = await body.text();
  } catch (error) {
    if (signal.aborted) throw error;
    throw new UpstreamFailure("The upstream answer broke off before it was complete.", true, { status: 502, code: "bad_response", cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UpstreamFailure("The upstream answered with a body that is not JSON.", true, { status: 502, code: "bad_response", cause: error });
  }
}
