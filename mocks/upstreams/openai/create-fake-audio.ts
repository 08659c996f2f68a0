/** Content type and bytes for each speech response_format. */
export const speechContentTypes: Record<string, string> = {
  mp3: "audio/mpeg",
  opus: "audio/opus",
  aac: "audio/aac",
  flac: "audio/flac",
  wav: "audio/wav",
  pcm: "audio/pcm",
};

/** OpenAI's raw PCM: 24 kHz, 16-bit signed little-endian, mono. */
const sampleRate = 24_000;
const samplesPerWord = sampleRate / 10;

function createWavHeader(dataLength: number): Buffer {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + dataLength, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(dataLength, 40);
  return header;
}

/** The leading bytes a sniffer looks for in each compressed format. */
const magicBytes: Record<string, Buffer> = {
  mp3: Buffer.from([0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xfb, 0x90, 0x64]),
  opus: Buffer.concat([Buffer.from("OggS", "ascii"), Buffer.from([0x00, 0x02])]),
  aac: Buffer.from([0xff, 0xf1, 0x50, 0x80]),
  flac: Buffer.from("fLaC", "ascii"),
};

/**
 * Deterministic audio for a text: 0.1 s of silence per word. `wav` and `pcm` are valid and decodable; the
 * compressed formats only start with the right magic bytes (enough for content sniffing, not for playback).
 */
export function createFakeAudio(wordCount: number, format: string): Buffer {
  const pcm = Buffer.alloc(Math.max(1, wordCount) * samplesPerWord * 2);
  if (format === "pcm") return pcm;
  if (format === "wav") return Buffer.concat([createWavHeader(pcm.length), pcm]);
  const magic = magicBytes[format] ?? Buffer.alloc(0);
  return Buffer.concat([magic, pcm.subarray(0, pcm.length / 8)]);
}
