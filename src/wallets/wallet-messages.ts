import { formatUnitsAsUsd } from "../billing/format-units-as-usd.js";

/** What the wallet operations answer when they refuse. */
export const walletMessages = {
  userNotFound: "No such user.",
  zeroDelta: "delta must not be 0: give the units to add (positive) or take away (negative).",
  withdrawalTooLarge: (delta: number, balance: number) =>
    `Cannot take ${-delta} units: the wallet holds ${balance} units (${formatUnitsAsUsd(balance)}) and never goes below zero.`,
  codeNotRedeemable: "This redemption code is not valid, or it was used already, disabled or expired.",
  rootOnly: "Only root can change an administrator or root.",
  notOnYourself: "You cannot change your own status, role or wallet limit.",
} as const;
