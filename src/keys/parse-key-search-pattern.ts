import { InvalidSearchPatternError } from "../errors/gateway-error.js";
import { stripKeyPrefix } from "./strip-key-prefix.js";

const maximumWildcards = 2;

/**
 * Splits a token search pattern into the literal pieces that must appear in
 * the key, in order. The pattern is trimmed and one leading `sk-` removed
 * (stored keys have no prefix). `%` is the only wildcard; `_` and everything
 * else is literal, since keys only hold [A-Za-z0-9] and a user pasting part of
 * a key means exactly those characters. Empty pieces are dropped, so `%%`,
 * `%` and the empty pattern all mean "any key".
 */
export function parseKeySearchPattern(pattern: string): readonly string[] {
  const body = stripKeyPrefix(pattern.trim());
  const pieces = body.split("%");
  if (pieces.length - 1 > maximumWildcards) {
    // Prefixed with the product's "search failed" message, as the spec's example shows.
    throw new InvalidSearchPatternError(
      "Token search failed: the token search pattern may contain at most 2 % wildcards.",
    );
  }
  return Object.freeze(pieces.filter((piece) => piece !== ""));
}
