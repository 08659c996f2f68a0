import { randomUUID } from "node:crypto";

/**
 * The ids of one Responses answer from a native one: `resp_<responseId>` (a random one when the upstream sent none),
 * and item ids `<prefix>_<responseId>_<position>` (`msg`, `fc`, `rs`), so a replayed answer keeps its ids.
 */
export function createResponsesIds(upstreamResponseId: string | undefined): {
  responseId: string;
  itemId(prefix: "msg" | "fc" | "rs", position: number): string;
} {
  const base = upstreamResponseId || randomUUID().replaceAll("-", "");
  return { responseId: `resp_${base}`, itemId: (prefix, position) => `${prefix}_${base}_${position}` };
}
