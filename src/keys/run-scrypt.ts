import { scrypt } from "node:crypto";

export interface ScryptParameters {
  cost: number;
  blockSize: number;
  parallelization: number;
}

/**
 * Promise wrapper over crypto.scrypt. maxmem is raised to twice what the
 * parameters need, because Node's default (32 MiB) is just below what
 * N=2^15, r=8 uses. Passwords are NFKC-normalised so the same password typed
 * on different keyboards or platforms derives the same hash.
 */
export function runScrypt(
  password: string,
  salt: Buffer,
  length: number,
  { cost, blockSize, parallelization }: ScryptParameters,
): Promise<Buffer> {
  const options = { N: cost, r: blockSize, p: parallelization, maxmem: 128 * cost * blockSize * 2 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, length, options, (error, derived) => {
      if (error) reject(error);
      else resolve(derived);
    });
  });
}
