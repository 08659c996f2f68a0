import type { Readable } from "node:stream";

/**
 * The most of an upstream error body that is read: the message in it is all we use (readUpstreamErrorMessage cuts
 * it to 500 characters), and an upstream that answers an error with an endless body must not hold the request.
 */
export const maximumUpstreamErrorBodySize = 64 * 1024;

/** The start of an error answer's body as text, at most `maximumSize` bytes; reading stops there, or where it broke. */
export async function readUpstreamErrorText(
  body: Readable,
  maximumSize = maximumUpstreamErrorBodySize,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      // Leaving the loop destroys the body: undici drops the rest of the answer.
      if (size >= maximumSize) break;
    }
  } catch {
    // Broken off: what arrived is the message there is.
  }
  return Buffer.concat(chunks).subarray(0, maximumSize).toString("utf8");
}
