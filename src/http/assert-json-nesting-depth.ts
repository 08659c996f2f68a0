import { InvalidRequestError } from "../errors/invalid-request-error.js";

/**
 * How deep objects and arrays may nest in a JSON body. Real requests (tool schemas included) stay far below it;
 * far deeper bodies overflow the stack of every recursive walker after the parser (JSON.stringify, the validator).
 */
const maximumJsonNestingDepth = 64;

const openBrace = 0x7b;
const openBracket = 0x5b;
const closeBrace = 0x7d;
const closeBracket = 0x5d;
const quote = 0x22;
const backslash = 0x5c;

/**
 * Refuses a JSON body nested deeper than the limit, from its raw bytes and before it is parsed: one pass that
 * counts brackets outside strings, so the cost is linear and no recursion is involved.
 */
export function assertJsonNestingDepth(body: Uint8Array): void {
  if (body.length <= maximumJsonNestingDepth) return;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < body.length; index++) {
    const byte = body[index];
    if (inString) {
      if (byte === backslash) index++;
      else if (byte === quote) inString = false;
    } else if (byte === quote) inString = true;
    else if (byte === openBrace || byte === openBracket) {
      if (++depth > maximumJsonNestingDepth) {
        throw new InvalidRequestError(
          `Request body is nested too deeply: objects and arrays may nest at most ${maximumJsonNestingDepth} levels.`,
          { code: "json_too_deep" },
        );
      }
    } else if (byte === closeBrace || byte === closeBracket) depth--;
  }
}
