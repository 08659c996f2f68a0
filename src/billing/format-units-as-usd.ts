import { UNITS_PER_USD } from "./convert-usd-terms-to-units.js";

/** Units as dollars, exactly (1 unit = $0.000002): 4200 → "$0.0084", 500000 → "$1.00". */
export function formatUnitsAsUsd(units: number): string {
  const microDollars = (BigInt(units) * 1_000_000n) / UNITS_PER_USD;
  const whole = microDollars / 1_000_000n;
  const fraction = (microDollars % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "").padEnd(2, "0");
  return `$${whole}.${fraction}`;
}
