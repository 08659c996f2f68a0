import { randomInt } from "node:crypto";

const keyAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const keyBodyLength = 48;

/**
 * A new API key, `sk-` plus 48 characters from [A-Za-z0-9] (about 286 bits).
 * randomInt rejection-samples, so every character is uniform (no modulo bias).
 */
export function generateApiKey(): string {
  let body = "";
  for (let index = 0; index < keyBodyLength; index += 1) {
    body += keyAlphabet[randomInt(keyAlphabet.length)];
  }
  return `sk-${body}`;
}
