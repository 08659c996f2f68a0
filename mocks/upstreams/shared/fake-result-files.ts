/**
 * Generated files a fake provider hosts itself on its own 127.0.0.1 port (result images, videos), as real providers
 * host results on signed object-storage URLs: the gateway downloads them through its SSRF-safe fetcher.
 */
export interface FakeResultFiles {
  /** Stores the bytes and returns the path they are served under (`/results/<id>.<extension>`). */
  add(contentType: string, bytes: Buffer, extension: string): string;
  get(name: string): { contentType: string; bytes: Buffer } | undefined;
  clear(): void;
}

export function createFakeResultFiles(): FakeResultFiles {
  const files = new Map<string, { contentType: string; bytes: Buffer }>();
  return {
    add(contentType, bytes, extension) {
      const name = `r${String(files.size + 1).padStart(6, "0")}.${extension}`;
      files.set(name, { contentType, bytes });
      return `/results/${name}`;
    },
    get: (name) => files.get(name),
    clear: () => files.clear(),
  };
}
