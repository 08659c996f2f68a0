import { timingSafeEqual } from "node:crypto";
import { runScrypt } from "./run-scrypt.js";

// Bounds on what a stored string may ask for, so a corrupted or planted row
// cannot make one login burn gigabytes of memory or minutes of CPU.
const maximumMemoryBytes = 256 * 1024 * 1024;
const maximumParallelization = 16;
const minimumSaltLength = 8;
const minimumHashLength = 16;
const maximumHashLength = 128;
const base64Pattern = /^[A-Za-z0-9+/]+={0,2}$/;

function parsePositiveInteger(text: string): number | undefined {
  if (!/^[1-9][0-9]{0,9}$/.test(text)) return undefined;
  return Number(text);
}

/**
 * Checks a password against a `hashPassword` string, using the parameters
 * stored in it. A malformed stored value never matches (it is not an error a
 * client could act on); the final comparison is constant-time.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [, costText, blockSizeText, parallelizationText, saltText, hashText] = parts as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const cost = parsePositiveInteger(costText);
  const blockSize = parsePositiveInteger(blockSizeText);
  const parallelization = parsePositiveInteger(parallelizationText);
  if (cost === undefined || blockSize === undefined || parallelization === undefined) return false;
  const costIsPowerOfTwo = cost >= 2 && (cost & (cost - 1)) === 0;
  if (!costIsPowerOfTwo || 128 * cost * blockSize > maximumMemoryBytes) return false;
  if (parallelization > maximumParallelization) return false;
  if (!base64Pattern.test(saltText) || !base64Pattern.test(hashText)) return false;
  const salt = Buffer.from(saltText, "base64");
  const expected = Buffer.from(hashText, "base64");
  if (salt.length < minimumSaltLength) return false;
  if (expected.length < minimumHashLength || expected.length > maximumHashLength) return false;

  const actual = await runScrypt(password, salt, expected.length, { cost, blockSize, parallelization });
  return timingSafeEqual(actual, expected);
}
