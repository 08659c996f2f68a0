import type { KeyCipher } from "../keys/create-key-cipher.js";

/** The inverse of encryptChannelKeys; throws KeyDecryptionError when the value was made with another secret. */
export function decryptChannelKeys(keyCipher: KeyCipher, keysEncrypted: string): string[] {
  const parsed: unknown = JSON.parse(keyCipher.decrypt(keysEncrypted));
  if (!Array.isArray(parsed) || !parsed.every((key) => typeof key === "string")) {
    throw new TypeError("stored channel keys are not a JSON array of strings");
  }
  return parsed;
}
