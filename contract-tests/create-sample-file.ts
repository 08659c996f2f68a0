import { createPcmTone } from "../mocks/upstreams/native/create-pcm-tone.js";
import { createTinyPng } from "../mocks/upstreams/native/create-tiny-png.js";
import { createWavFile } from "../mocks/upstreams/native/create-wav-file.js";

/** A small valid file for a multipart field that accepts `contentType`: a PNG for images, a WAV otherwise. */
export function createSampleFile(contentType: string): { bytes: Buffer; type: string; name: string } {
  if (contentType.startsWith("image/"))
    return { bytes: createTinyPng(8, 8, [200, 40, 40]), type: "image/png", name: "sample.png" };
  return { bytes: createWavFile(createPcmTone(2_400, 24_000), 24_000), type: "audio/wav", name: "sample.wav" };
}
