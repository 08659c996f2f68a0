/** An integer field as JSON sends it or as a multipart form's text; undefined when absent, NaN when not an integer. */
export function readIntegerField(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isInteger(number) ? number : Number.NaN;
}
