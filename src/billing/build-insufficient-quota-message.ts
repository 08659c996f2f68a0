import { formatUnitsAsUsd } from "./format-units-as-usd.js";

/** Says what the request could cost, what is left, and the two ways out. */
export function buildInsufficientQuotaMessage(worstCase: number, remaining: number): string {
  return (
    `Insufficient quota: this request could cost up to ${worstCase} units (${formatUnitsAsUsd(worstCase)}) ` +
    `but the token has ${remaining} units left. ` +
    "Lower max_tokens (or max_completion_tokens / max_output_tokens) or top up the token."
  );
}
