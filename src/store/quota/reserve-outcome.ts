/**
 * How a reservation went: `held` (taken from the token, unless it is unlimited, and from the owner's wallet, unless it
 * is unlimited; the ledger row written), `free` (both unlimited: nothing taken, no row), or the balance that could
 * not cover the amount (nothing taken).
 */
export type ReserveOutcome = "held" | "free" | "token" | "wallet";
