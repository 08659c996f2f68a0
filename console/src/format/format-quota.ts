const unitsPerDollar = 500_000;
const dollars = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 6,
});

/** Quota units with their value in US dollars beside them (500,000 units = $1). */
export function formatQuota(units: number): string {
  return `${units.toLocaleString("en-US")} units (${dollars.format(units / unitsPerDollar)})`;
}
