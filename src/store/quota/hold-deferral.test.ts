import { describe, expect, it } from "vitest";
import { createHoldDeferral } from "./hold-deferral.js";

const hold = (amount: number, overrides: { tokenLimited?: boolean; tokenId?: number; userId?: number } = {}) => ({
  requestId: "r",
  tokenId: overrides.tokenId ?? 1,
  userId: overrides.userId ?? 10,
  amount,
  tokenLimited: overrides.tokenLimited ?? true,
});

function deferralAt() {
  const clock = { now: 0 };
  const deferral = createHoldDeferral({ factor: 100, maxAgeMs: 2_000, now: () => clock.now });
  return { clock, deferral };
}

describe("deciding when a hold may wait for its settlement", () => {
  it("defers nothing before a balance was read, and once read, only a hundredth of what it saw left", () => {
    const { deferral } = deferralAt();
    expect(deferral.tryDefer(hold(10))).toBe(false);
    // A hold of 1,000 read 102,000 on the token and 500,000 in the wallet: 101,000 and 499,000 left.
    deferral.see(hold(1_000), { token_balance: "102000", wallet_balance: "500000", wallet_unlimited: 0 }, 1_000);
    expect(deferral.tryDefer(hold(1_011))).toBe(false);
    expect(deferral.tryDefer(hold(1_010))).toBe(true);
  });

  it("counts what it let go without a hold until each is released", () => {
    const { deferral } = deferralAt();
    deferral.see(hold(0), { token_balance: "5000", wallet_balance: "1000000", wallet_unlimited: 0 }, 0);
    // 5,000 covers 50 a hundred times over; after one is let go, 4,950 no longer does, until it is released.
    expect(deferral.tryDefer(hold(50))).toBe(true);
    expect(deferral.tryDefer(hold(50))).toBe(false);
    deferral.release(hold(50));
    expect(deferral.tryDefer(hold(50))).toBe(true);
  });

  it("lets go without a hold at most a hundredth of the balance it read, however small each request", () => {
    const { deferral } = deferralAt();
    deferral.see(hold(0), { token_balance: "10000", wallet_balance: "1000000", wallet_unlimited: 0 }, 0);
    // 30 each: three make 90, a hundredth of 10,000 is 100, so a fourth (120) waits for a hold.
    expect([1, 2, 3, 4].map(() => deferral.tryDefer(hold(30)))).toEqual([true, true, true, false]);
    expect(deferral.tryDefer(hold(10))).toBe(true);
  });

  it("asks the wallet's margin too, unless the wallet is unlimited, and only the wallet's for an unlimited token", () => {
    const { deferral } = deferralAt();
    deferral.see(hold(0), { token_balance: "1000000", wallet_balance: "999", wallet_unlimited: 0 }, 0);
    expect(deferral.tryDefer(hold(10))).toBe(false);
    deferral.see(hold(0), { token_balance: "1000000", wallet_balance: "0", wallet_unlimited: 1 }, 0);
    expect(deferral.tryDefer(hold(10))).toBe(true);
    // A token that is not limited: its balance was not read, the wallet decides.
    const walletOnly = hold(10, { tokenLimited: false, tokenId: 2 });
    expect(deferral.tryDefer(walletOnly)).toBe(true);
  });

  it("forgets a balance read more than two seconds ago, and one a refusal read short", () => {
    const { clock, deferral } = deferralAt();
    deferral.see(hold(0), { token_balance: "1000000", wallet_balance: "1000000", wallet_unlimited: 0 }, 0);
    clock.now = 2_000;
    expect(deferral.tryDefer(hold(10))).toBe(true);
    deferral.release(hold(10));
    clock.now = 2_001;
    expect(deferral.tryDefer(hold(10))).toBe(false);
    deferral.see(hold(10), { token_balance: "5", wallet_balance: "1000000", wallet_unlimited: 0 }, 0);
    expect(deferral.tryDefer(hold(10))).toBe(false);
  });

  it("never defers with a factor of 0 (turned off)", () => {
    const deferral = createHoldDeferral({ factor: 0, maxAgeMs: 2_000 });
    deferral.see(hold(0), { token_balance: "1000000", wallet_balance: "1000000", wallet_unlimited: 0 }, 0);
    expect(deferral.tryDefer(hold(10))).toBe(false);
  });
});
