import { formatUnitsAsUsd } from "./format-units-as-usd.js";

/** Which balance could not cover a request: the token's own cap, or its owner's wallet. */
export type ShortBalance = "token" | "wallet";

/** Says what the request could cost, which balance is short and what it holds, and the ways out. */
export function buildInsufficientQuotaMessage(
  worstCase: number,
  remaining: number,
  short: ShortBalance = "token",
): string {
  const could = `Insufficient quota: this request could cost up to ${worstCase} units (${formatUnitsAsUsd(worstCase)}) `;
  const lower = "Lower max_tokens (or max_completion_tokens / max_output_tokens)";
  if (short === "wallet")
    return (
      `${could}but your account's wallet has ${remaining} units left. ` +
      `${lower}, redeem a code or ask an administrator to top up your wallet.`
    );
  return `${could}but the token has ${remaining} units left. ${lower} or top up the token.`;
}
