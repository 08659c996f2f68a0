import type { AllowList } from "./ip/allow-list.js";
import { parseAllowList } from "./ip/parse-allow-list.js";

/** Parsed allow-lists by their text: tokens share few distinct lists, and parsing on every request is waste. */
export function createAllowListCache(maximumEntries = 1000): (text: string) => AllowList {
  const cache = new Map<string, AllowList>();
  return (text) => {
    let allowList = cache.get(text);
    if (!allowList) {
      allowList = parseAllowList(text);
      if (cache.size >= maximumEntries) cache.delete(cache.keys().next().value as string);
      cache.set(text, allowList);
    }
    return allowList;
  };
}
