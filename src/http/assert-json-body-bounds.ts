import { InvalidRequestError } from "../errors/gateway-error.js";

/**
 * How deep objects and arrays may nest in a JSON body. Real requests (tool schemas included) stay far below it;
 * far deeper bodies overflow the stack of every recursive walker after the parser (JSON.stringify, the validator).
 */
const maximumJsonNestingDepth = 64;

/**
 * How many values the arrays and objects of a JSON body may hold in all (one more than its commas). The largest
 * real requests (2,048 embedding inputs, or 300,000 token ids) stay far below it; a 20 MB body of small numbers
 * holds ten million, and parsing that alone takes hundreds of megabytes before any schema can say `maxItems`.
 */
export const maximumJsonValueCount = 1_000_000;

const openBrace = 0x7b;
const openBracket = 0x5b;
const closeBrace = 0x7d;
const closeBracket = 0x5d;
const quote = 0x22;
const backslash = 0x5c;
const comma = 0x2c;

/**
 * Refuses a JSON body nested deeper than the limit, or holding more values than the limit, from its raw bytes and
 * before it is parsed: one pass that counts brackets and commas outside strings, so the cost is linear, no
 * recursion is involved and nothing is allocated.
 */
export function assertJsonBodyBounds(body: Uint8Array): void {
  if (body.length <= maximumJsonNestingDepth) return;
  let depth = 0;
  let commas = 0;
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
    else if (byte === comma && ++commas >= maximumJsonValueCount) {
      throw new InvalidRequestError(
        `Request body holds too many values: its arrays and objects may hold at most ${maximumJsonValueCount} in all.`,
        { code: "json_too_large" },
      );
    }
  }
}
