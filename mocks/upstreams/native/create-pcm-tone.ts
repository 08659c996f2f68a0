export const SPEECH_SAMPLE_RATE = 24_000;

/** Raw 16-bit little-endian mono PCM of a 440 Hz tone: what the speech models return before any container. */
export function createPcmTone(sampleCount: number, sampleRate: number = SPEECH_SAMPLE_RATE): Buffer {
  const pcm = Buffer.alloc(sampleCount * 2);
  for (let index = 0; index < sampleCount; index += 1) {
    const sample = Math.round(3000 * Math.sin((2 * Math.PI * 440 * index) / sampleRate));
    pcm.writeInt16LE(sample, index * 2);
  }
  return pcm;
}
