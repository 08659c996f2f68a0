import { maskKey } from "../keys/mask-key.js";

// Shapes of credentials that upstreams echo in their error texts: OpenAI-style `sk-…` keys, Google-style `AIza…`
// keys, bearer tokens, and long runs of letters and digits (our own bare 48-character keys and most others).
const longAlphanumericRun = /(?<![A-Za-z0-9])[A-Za-z0-9]{32,}(?![A-Za-z0-9])/g;
const keyShapedPatterns = [
  /\bsk-[A-Za-z0-9_-]{8,}/g,
  /\bAIza[A-Za-z0-9_-]{20,}/g,
  /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  longAlphanumericRun,
];

/**
 * An upstream's error text with the channel's own keys and anything key-shaped masked, before the text reaches a
 * client or a log line: some upstreams quote the presented key back ("Incorrect API key provided: sk-…").
 */
export function maskUpstreamSecrets(text: string, channelKeys: readonly string[]): string {
  let masked = text;
  for (const key of channelKeys) {
    if (key.length >= 4 && masked.includes(key)) masked = masked.split(key).join(maskKey(key));
  }
  for (const pattern of keyShapedPatterns) {
    masked = masked.replace(pattern, (match, bearer?: string) => {
      if (typeof bearer === "string") return `${bearer}${maskKey(match.slice(bearer.length))}`;
      // A long run of one kind of character (padding, a word repeated) is not a key; random keys mix both.
      if (pattern === longAlphanumericRun && !(/[0-9]/.test(match) && /[A-Za-z]/.test(match))) return match;
      return maskKey(match);
    });
  }
  return masked;
}

/**
 * A frame on its way to a streaming client with the channel's own keys masked. Stream frames are whole events, so
 * a key cannot be split across two of them; only the exact keys are looked for, which costs one search per key
 * per frame where the pattern masking above would scan every byte of a long stream several times.
 */
export function maskChannelKeysInFrame<Frame extends string | Uint8Array>(
  frame: Frame,
  channelKeys: readonly string[],
): Frame | string {
  for (const key of channelKeys) {
    if (key.length < 4) continue;
    const found =
      typeof frame === "string"
        ? frame.includes(key)
        : Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength).includes(key);
    if (found) {
      const text =
        typeof frame === "string"
          ? frame
          : Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength).toString("utf8");
      return maskUpstreamSecrets(text, channelKeys);
    }
  }
  return frame;
}
