import { describe, expect, it } from "vitest";
import { hashPassword } from "./hash-password.js";
import { verifyPassword } from "./verify-password.js";

describe("hashPassword and verifyPassword", () => {
  it("stores scrypt parameters, a 16-byte salt and the hash", async () => {
    const stored = await hashPassword("correct horse battery staple");
    const [name, cost, blockSize, parallelization, salt, hash] = stored.split("$");
    expect(name).toBe("scrypt");
    expect([cost, blockSize, parallelization]).toEqual(["32768", "8", "1"]);
    expect(Buffer.from(salt ?? "", "base64")).toHaveLength(16);
    expect(Buffer.from(hash ?? "", "base64")).toHaveLength(32);
  });

  it("verifies the right password and rejects a wrong one", async () => {
    const stored = await hashPassword("correct horse battery staple");
    expect(await verifyPassword("correct horse battery staple", stored)).toBe(true);
    expect(await verifyPassword("correct horse battery stapler", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("salts: the same password hashes differently each time", async () => {
    const [first, second] = await Promise.all([hashPassword("same"), hashPassword("same")]);
    expect(first).not.toBe(second);
    expect(await verifyPassword("same", first)).toBe(true);
    expect(await verifyPassword("same", second)).toBe(true);
  });

  it("treats canonically equivalent Unicode as the same password", async () => {
    const stored = await hashPassword("caf\u00e9");
    expect(await verifyPassword("cafe\u0301", stored)).toBe(true);
  });

  it("reads the parameters from the stored string", async () => {
    // Produced with crypto.scryptSync('pw', Buffer.alloc(16, 1), 32, { N: 1024, r: 8, p: 1 }).
    const { scryptSync } = await import("node:crypto");
    const salt = Buffer.alloc(16, 1);
    const hash = scryptSync("pw", salt, 32, { N: 1024, r: 8, p: 1 });
    const stored = `scrypt$1024$8$1$${salt.toString("base64")}$${hash.toString("base64")}`;
    expect(await verifyPassword("pw", stored)).toBe(true);
    expect(await verifyPassword("px", stored)).toBe(false);
  });

  it.each([
    ["empty", ""],
    ["another scheme", "bcrypt$2b$10$abc"],
    ["missing parts", "scrypt$32768$8$1$c2FsdA=="],
    [
      "cost not a power of two",
      "scrypt$1000$8$1$AQEBAQEBAQEBAQEBAQEBAQ==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
    ],
    ["absurd memory", "scrypt$16777216$8$1$AQEBAQEBAQEBAQEBAQEBAQ==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="],
    ["non-numeric parameter", "scrypt$1024$x$1$AQEBAQEBAQEBAQEBAQEBAQ==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="],
    ["bad base64", "scrypt$1024$8$1$!!!$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="],
    ["short hash", "scrypt$1024$8$1$AQEBAQEBAQEBAQEBAQEBAQ==$AAAA"],
  ])("never matches a malformed stored value (%s)", async (_name, stored) => {
    expect(await verifyPassword("pw", stored)).toBe(false);
  });
});
