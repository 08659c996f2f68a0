/**
 * The lookup hash (HMAC-SHA256) of the API keys presented recently, so a key used again is not hashed again:
 * creating an HMAC context was about 2% of the relay's CPU and more at one request at a time. Bounded: past
 * `maximumEntries` the oldest entry goes. It holds nothing the process could not already recover (the token
 * cache and the stored ciphertexts with the gateway secret), and it never decides anything: the hash still has
 * to find a token.
 */
export function createKeyHashMemo(hash: (keyBody: string) => string, maximumEntries: number): (keyBody: string) => string {
  const hashes = new Map<string, string>();
  return (keyBody) => {
    let keyHash = hashes.get(keyBody);
    if (keyHash === undefined) {
      keyHash = hash(keyBody);
      if (hashes.size >= maximumEntries) hashes.delete(hashes.keys().next().value as string);
      hashes.set(keyBody, keyHash);
    }
    return keyHash;
  };
}
