import type { KeyCipher } from "../keys/create-key-cipher.js";

/** All of a channel's upstream keys as one encrypted value (a JSON array inside), as the store keeps them. */
export function encryptChannelKeys(keyCipher: KeyCipher, keys: string[]): string {
  return keyCipher.encrypt(JSON.stringify(keys));
}
