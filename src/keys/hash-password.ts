import { randomBytes } from "node:crypto";
import { runScrypt, type ScryptParameters } from "./run-scrypt.js";

// OWASP's scrypt baseline; about 32 MiB and tens of milliseconds per hash.
const parameters: ScryptParameters = { cost: 2 ** 15, blockSize: 8, parallelization: 1 };
const saltLength = 16;
const hashLength = 32;

/**
 * `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>`: the parameters travel with the
 * hash so they can be raised later without invalidating existing passwords.
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(saltLength);
  const derived = await runScrypt(password, salt, hashLength, parameters);
  return [
    "scrypt",
    parameters.cost,
    parameters.blockSize,
    parameters.parallelization,
    salt.toString("base64"),
    derived.toString("base64"),
  ].join("$");
}
