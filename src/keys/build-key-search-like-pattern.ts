import { parseKeySearchPattern } from "./parse-key-search-pattern.js";

export interface KeySearchLikePattern {
  /** Use as `key LIKE ? ESCAPE '\'`. */
  pattern: string;
  escape: "\\";
}

/**
 * The SQL `LIKE` form of the same search buildKeySearchMatcher does, so a
 * database query and an in-memory filter agree: pieces escaped (`\`, `%`, `_`),
 * joined and surrounded by `%`. Throws InvalidSearchPatternError like the matcher.
 * Note: LIKE is case-insensitive for ASCII in SQLite by default; use
 * `PRAGMA case_sensitive_like` or GLOB there if case matters.
 */
export function buildKeySearchLikePattern(pattern: string): KeySearchLikePattern {
  const pieces = parseKeySearchPattern(pattern).map((piece) =>
    piece.replace(/[\\%_]/g, (character) => `\\${character}`),
  );
  return { pattern: `%${pieces.join("%")}%`, escape: "\\" };
}
