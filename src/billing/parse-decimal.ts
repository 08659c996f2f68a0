/** A non-float view of a configured number: numerator / denominator, both exact. */
export interface ExactDecimal {
  numerator: bigint;
  denominator: bigint;
}

/**
 * Reads a number as the decimal an operator wrote (`0.075`, `1.2`, `1e-7`): `String(value)` is the shortest text
 * that round-trips, which for config values is the text in the file. Money then stays exact: 0.1 + 0.2 is 0.3.
 */
export function parseDecimal(value: number): ExactDecimal {
  // Token counts are whole numbers and prices repeat: both skip the text parsing on the request path.
  if (Number.isSafeInteger(value)) return { numerator: BigInt(value), denominator: 1n };
  const known = parsedPrices.get(value);
  if (known) return known;
  const parsed = parseDecimalText(value);
  if (parsedPrices.size < 10_000) parsedPrices.set(value, parsed);
  return parsed;
}

const parsedPrices = new Map<number, ExactDecimal>();

function parseDecimalText(value: number): ExactDecimal {
  if (!Number.isFinite(value)) throw new RangeError(`expected a finite number, got ${value}`);
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value));
  if (!match) throw new RangeError(`cannot read ${value} as a decimal`);
  const [, sign, whole, fraction = "", exponentText = "0"] = match;
  const exponent = Number(exponentText) - fraction.length;
  const digits = BigInt(`${sign}${whole}${fraction}`);
  return exponent >= 0
    ? { numerator: digits * 10n ** BigInt(exponent), denominator: 1n }
    : { numerator: digits, denominator: 10n ** BigInt(-exponent) };
}
