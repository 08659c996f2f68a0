import { parseKeySearchPattern } from "./parse-key-search-pattern.js";

/**
 * Matcher for the token search's `token` parameter (partial key match, `sk-`
 * optional, at most 2 `%`). Semantics are SQL `LIKE '%<pattern>%'`, as in
 * new-api: the pattern is implicitly surrounded by `%`, so it is never
 * anchored to the start or end of the key; without wildcards it is a plain
 * substring match, with wildcards the pieces must appear in order without
 * overlapping. Case-sensitive, because keys are. Pass the key without `sk-`.
 * Throws InvalidSearchPatternError for more than 2 wildcards. No regular
 * expression is built from the input, so nothing in it can be special.
 */
export function buildKeySearchMatcher(pattern: string): (key: string) => boolean {
  const pieces = parseKeySearchPattern(pattern);
  return (key) => {
    let position = 0;
    for (const piece of pieces) {
      // Leftmost match is always safe for in-order pieces: it leaves the most room for the rest.
      const found = key.indexOf(piece, position);
      if (found === -1) return false;
      position = found + piece.length;
    }
    return true;
  };
}
