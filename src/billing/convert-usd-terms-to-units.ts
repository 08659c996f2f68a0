import { parseDecimal } from "./parse-decimal.js";

/** 500,000 quota units = 1 USD (the documented quota unit). */
export const UNITS_PER_USD = 500_000n;

export interface UsdTerm {
  /** tokens, images, seconds or calls; may be fractional (seconds) */
  quantity: number;
  /** USD per `per` of the quantity; undefined or 0 means free */
  usdPrice: number | undefined;
  /** 1_000_000 for per-million-token prices, 1 for flat prices */
  per: number;
}

/**
 * Σ quantity × price / per, times the group ratio, in units, rounded half up to the nearest unit. Computed on exact
 * rationals (BigInt) so `10 × 2 + 5 × 4` per 1M at ratio 1 is exactly 20 units, never 19.999999999999996.
 */
export function convertUsdTermsToUnits(terms: readonly UsdTerm[], ratio: number): number {
  let numerator = 0n;
  let denominator = 1n;
  for (const term of terms) {
    if (!term.usdPrice || term.quantity <= 0) continue;
    const quantity = parseDecimal(term.quantity);
    const price = parseDecimal(term.usdPrice);
    const termNumerator = quantity.numerator * price.numerator * UNITS_PER_USD;
    const termDenominator = quantity.denominator * price.denominator * BigInt(term.per);
    numerator = numerator * termDenominator + termNumerator * denominator;
    denominator *= termDenominator;
  }
  const exactRatio = parseDecimal(ratio);
  numerator *= exactRatio.numerator;
  denominator *= exactRatio.denominator;
  // A negative price or ratio is a configuration mistake; it must never turn into a credit.
  if (numerator <= 0n) return 0;
  return Number((2n * numerator + denominator) / (2n * denominator));
}
