import { describe, expect, it } from "vitest";
import { ConfigurationError, GatewayError, KeyDecryptionError } from "../errors/gateway-error.js";
import { createKeyCipher } from "./create-key-cipher.js";

const secret = "a-test-secret-of-enough-length";
const key = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefghijkl";

function replacePart(stored: string, index: number, replace: (part: string) => string): string {
  const parts = stored.split(".");
  parts[index] = replace(parts[index] ?? "");
  return parts.join(".");
}

function flipFirstByte(part: string): string {
  const bytes = Buffer.from(part, "base64url");
  bytes[0] = (bytes[0] ?? 0) ^ 1;
  return bytes.toString("base64url");
}

describe("createKeyCipher", () => {
  it("rejects a missing or short secret with a configuration error", () => {
    expect(() => createKeyCipher("")).toThrow(ConfigurationError);
    expect(() => createKeyCipher("fifteen-chars!!")).toThrow(/GATEWAY_SECRET must be at least 16 characters/);
    expect(() => createKeyCipher("sixteen-chars!!!")).not.toThrow();
  });

  it("round-trips, in the v1 format, with a fresh IV each time", () => {
    const cipher = createKeyCipher(secret);
    const first = cipher.encrypt(key);
    const second = cipher.encrypt(key);
    expect(first).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain(key);
    expect(cipher.decrypt(first)).toBe(key);
    expect(cipher.decrypt(second)).toBe(key);
  });

  it("round-trips empty and non-ASCII text", () => {
    const cipher = createKeyCipher(secret);
    expect(cipher.decrypt(cipher.encrypt(""))).toBe("");
    expect(cipher.decrypt(cipher.encrypt("clé-🔑"))).toBe("clé-🔑");
  });

  it("decrypts with another instance built from the same secret", () => {
    expect(createKeyCipher(secret).decrypt(createKeyCipher(secret).encrypt(key))).toBe(key);
  });

  it.each([
    ["iv", 1],
    ["ciphertext", 2],
    ["tag", 3],
  ])("throws KeyDecryptionError when the %s is altered", (_name, index) => {
    const cipher = createKeyCipher(secret);
    const tampered = replacePart(cipher.encrypt(key), index, flipFirstByte);
    expect(() => cipher.decrypt(tampered)).toThrow(KeyDecryptionError);
  });

  it("throws KeyDecryptionError under another secret", () => {
    const stored = createKeyCipher(secret).encrypt(key);
    expect(() => createKeyCipher("another-secret-value!").decrypt(stored)).toThrow(KeyDecryptionError);
  });

  it.each([
    ["not the format", "plain-text-key"],
    ["too few parts", "v1.aaaa.bbbb"],
    ["unknown version", "v2.AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA"],
  ])("throws KeyDecryptionError on %s", (_name, stored) => {
    expect(() => createKeyCipher(secret).decrypt(stored)).toThrow(KeyDecryptionError);
  });

  it("refuses a truncated tag and non-base64url characters", () => {
    const cipher = createKeyCipher(secret);
    const stored = cipher.encrypt(key);
    expect(() => cipher.decrypt(replacePart(stored, 3, (tag) => tag.slice(0, 16)))).toThrow(/bad tag length/);
    expect(() => cipher.decrypt(replacePart(stored, 2, (text) => `${text}!`))).toThrow(/not base64url/);
  });

  it("raises a GatewayError that does not echo the stored value", () => {
    const cipher = createKeyCipher(secret);
    const stored = replacePart(cipher.encrypt(key), 2, flipFirstByte);
    try {
      cipher.decrypt(stored);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as Error).message).not.toContain(stored.split(".")[2]);
    }
  });

  it("hashes deterministically, as hex, keyed by the secret", () => {
    const cipher = createKeyCipher(secret);
    const hash = cipher.hash(key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(cipher.hash(key)).toBe(hash);
    expect(createKeyCipher(secret).hash(key)).toBe(hash);
    expect(cipher.hash(`${key}x`)).not.toBe(hash);
    expect(createKeyCipher("another-secret-value!").hash(key)).not.toBe(hash);
  });

  it("stays compatible with values written before (pinned vectors)", () => {
    // Computed independently with plain node:crypto; if these change, stored keys and hashes are orphaned.
    const cipher = createKeyCipher("0123456789abcdef");
    expect(cipher.hash("key")).toBe("995f3f72c665f57ade9937b7a13b752fc8207b9e9126735ef7505c51277a2211");
    expect(cipher.decrypt("v1.BwcHBwcHBwcHBwcH.hPu3dCw.i4JI1z1ZnnWLAv7GjgKhoA")).toBe("hello");
  });
});
