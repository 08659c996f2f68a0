/** Quota moves in whole non-negative units; anything else is a caller bug that must not reach the balance. */
export function assertQuotaAmount(name: string, amount: number): void {
  if (!Number.isSafeInteger(amount) || amount < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${amount}`);
  }
}
