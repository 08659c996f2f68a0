import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";
import { ConfigurationError, KeyDecryptionError } from "../errors/gateway-error.js";

export interface KeyCipher {
  /** `v1.<iv>.<ciphertext>.<tag>`, each part base64url; a fresh IV every call. */
  encrypt(plain: string): string;
  /** Throws KeyDecryptionError when the value is malformed, altered or from another secret. */
  decrypt(stored: string): string;
  /** Deterministic keyed hash (hex) used to look a key up without decrypting every row. */
  hash(plain: string): string;
}

const minimumSecretLength = 16;
const formatVersion = "v1";
const ivLength = 12;
const tagLength = 16;
const encryptionInfo = "gateway-key-encryption";
const lookupInfo = "gateway-key-lookup";
// Fixed and empty on purpose: changing the salt would orphan every stored key.
const hkdfSalt = Buffer.alloc(0);
const base64UrlPattern = /^[A-Za-z0-9_-]*$/;

function deriveKey(secret: string, info: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, hkdfSalt, info, 32));
}

function decodePart(part: string, name: string): Buffer {
  // Buffer.from silently skips characters outside the alphabet; refuse them instead.
  if (!base64UrlPattern.test(part)) throw new KeyDecryptionError(`${name} is not base64url`);
  return Buffer.from(part, "base64url");
}

/**
 * Encryption and lookup hashing for stored API keys, keyed by GATEWAY_SECRET.
 * Two independent subkeys come from HKDF-SHA256 (one for AES-256-GCM, one for
 * HMAC-SHA256), derived once here so no call pays for derivation and a leaked
 * lookup hash says nothing about the encryption key.
 */
export function createKeyCipher(secret: string): KeyCipher {
  if (typeof secret !== "string" || secret.length < minimumSecretLength) {
    throw new ConfigurationError(
      `GATEWAY_SECRET must be at least ${minimumSecretLength} characters long (it encrypts stored API keys); set it to a long random value`,
    );
  }
  const encryptionKey = deriveKey(secret, encryptionInfo);
  const lookupKey = deriveKey(secret, lookupInfo);

  return {
    encrypt(plain) {
      const iv = randomBytes(ivLength);
      const cipher = createCipheriv("aes-256-gcm", encryptionKey, iv, { authTagLength: tagLength });
      const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [
        formatVersion,
        iv.toString("base64url"),
        ciphertext.toString("base64url"),
        tag.toString("base64url"),
      ].join(".");
    },

    decrypt(stored) {
      const parts = stored.split(".");
      if (parts.length !== 4) throw new KeyDecryptionError("unexpected format");
      const [version, ivPart, ciphertextPart, tagPart] = parts as [string, string, string, string];
      if (version !== formatVersion) throw new KeyDecryptionError(`unsupported version "${version.slice(0, 8)}"`);
      const iv = decodePart(ivPart, "iv");
      const ciphertext = decodePart(ciphertextPart, "ciphertext");
      const tag = decodePart(tagPart, "tag");
      if (iv.length !== ivLength) throw new KeyDecryptionError("bad iv length");
      // A short tag would weaken authentication, so only full 16-byte tags are accepted.
      if (tag.length !== tagLength) throw new KeyDecryptionError("bad tag length");
      const decipher = createDecipheriv("aes-256-gcm", encryptionKey, iv, { authTagLength: tagLength });
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
      } catch (error) {
        throw new KeyDecryptionError("authentication failed", { cause: error });
      }
    },

    hash(plain) {
      return createHmac("sha256", lookupKey).update(plain, "utf8").digest("hex");
    },
  };
}
