import type { BalancesSeen } from "./lone-ledger-statements.js";
import type { PostgresReserveInput } from "./postgres-ledger-items.js";

/**
 * When a whole (not streamed) answer may go upstream before its hold is taken. On PostgreSQL a hold is a round trip
 * and a commit before the upstream call: at one connection on the benchmark machine, 0.1–0.2 ms of a request's
 * 1.1 ms. A request whose balances, as this instance last read them, cover its worst case and every worst case it
 * already let go without a hold `factor` times over, is sent upstream at once, and its hold is taken in its
 * settlement's statement (holdAndSettleAloneStatement), which decides on the balances as they are then. The rare
 * request the balance can no longer cover by then (another instance or an operator took it meanwhile) is refused
 * with the same error as a hold, and its answer is withheld: the money rules hold, and what it costs is one upstream
 * call the gateway pays for and the client does not get. one-api and new-api skip the hold at the same hundredfold
 * margin, but charge afterwards whatever the balance then is.
 */
export interface HoldDeferral {
  /** The balances a lone statement read before its own change, and what that statement took from them. */
  see(
    input: Pick<PostgresReserveInput, "tokenId" | "userId" | "tokenLimited">,
    seen: BalancesSeen,
    taken: number,
  ): void;
  /**
   * True (and counted as let go) when the balances seen lately cover `input.amount` and everything already let go
   * on them `factor` times over.
   */
  tryDefer(input: PostgresReserveInput): boolean;
  /** The deferred hold was settled or refused: no longer counted as let go. */
  release(input: PostgresReserveInput): void;
}

export interface HoldDeferralOptions {
  /** How many times over the balances must cover the worst case (0: never defer). */
  factor: number;
  /** How old a balance read may be, in milliseconds. */
  maxAgeMs: number;
  /** A monotonic clock in milliseconds (tests set it). */
  now?: () => number;
}

interface Seen {
  /** The balance after the statement that read it; `unlimited` for an unlimited wallet. */
  balance: number | "unlimited";
  at: number;
}

export function createHoldDeferral(options: HoldDeferralOptions): HoldDeferral {
  const now = options.now ?? (() => performance.now());
  const tokens = new Map<number, Seen>();
  const wallets = new Map<number, Seen>();
  const letGoByToken = new Map<number, number>();
  const letGoByWallet = new Map<number, number>();

  // What this instance has sent upstream without a hold, this request included, stays within a `factor`th of the
  // balance it read: the most a balance spent meanwhile can leave refused after their upstream calls.
  const covers = (seen: Seen | undefined, letGo: number, amount: number) =>
    seen !== undefined &&
    now() - seen.at <= options.maxAgeMs &&
    (seen.balance === "unlimited" || (letGo + amount) * options.factor <= seen.balance);

  const add = (map: Map<number, number>, id: number, amount: number) => {
    const total = (map.get(id) ?? 0) + amount;
    if (total === 0) map.delete(id);
    else map.set(id, total);
  };

  return {
    see(input, seen, taken) {
      const at = now();
      if (!input.tokenLimited || seen.token_balance === null) tokens.delete(input.tokenId);
      else tokens.set(input.tokenId, { balance: Math.max(Number(seen.token_balance) - taken, 0), at });
      if (seen.wallet_balance === null) wallets.delete(input.userId);
      else if (seen.wallet_unlimited === 1) wallets.set(input.userId, { balance: "unlimited", at });
      else wallets.set(input.userId, { balance: Math.max(Number(seen.wallet_balance) - taken, 0), at });
    },
    tryDefer(input) {
      if (options.factor <= 0 || input.amount <= 0) return false;
      if (input.tokenLimited && !covers(tokens.get(input.tokenId), letGoByToken.get(input.tokenId) ?? 0, input.amount))
        return false;
      if (!covers(wallets.get(input.userId), letGoByWallet.get(input.userId) ?? 0, input.amount)) return false;
      if (input.tokenLimited) add(letGoByToken, input.tokenId, input.amount);
      add(letGoByWallet, input.userId, input.amount);
      return true;
    },
    release(input) {
      if (input.tokenLimited) add(letGoByToken, input.tokenId, -input.amount);
      add(letGoByWallet, input.userId, -input.amount);
    },
  };
}
