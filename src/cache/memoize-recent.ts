/**
 * Remembers what a pure function of a string returned for the most recent `maximumEntries` arguments, so a value
 * seen again is not computed again. Past the bound the oldest entry goes. Use it only for functions whose result
 * decides nothing by being cached: the API key lookup hash (creating an HMAC context was about 2% of the relay's
 * CPU) and the normalised client address (ipaddr.js parsing, about 1%).
 */
export function memoizeRecent<Value>(
  compute: (argument: string) => Value,
  maximumEntries: number,
): (argument: string) => Value {
  const values = new Map<string, Value>();
  return (argument) => {
    if (values.has(argument)) return values.get(argument) as Value;
    const value = compute(argument);
    if (values.size >= maximumEntries) values.delete(values.keys().next().value as string);
    values.set(argument, value);
    return value;
  };
}
