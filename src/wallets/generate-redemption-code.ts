import { randomInt } from "node:crypto";

const codeAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const codeBodyLength = 32;

/** A new redemption code, `rc-` plus 32 uniform characters from [A-Za-z0-9] (about 190 bits): not guessable. */
export function generateRedemptionCode(): string {
  let body = "";
  for (let index = 0; index < codeBodyLength; index += 1) body += codeAlphabet[randomInt(codeAlphabet.length)];
  return `rc-${body}`;
}
