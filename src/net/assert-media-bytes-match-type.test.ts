import { describe, expect, it } from "vitest";
import { createTinyPng } from "../../mocks/upstreams/native/create-tiny-png.js";
import { createWavFile } from "../../mocks/upstreams/native/create-wav-file.js";
import { InvalidRequestError } from "../errors/gateway-error.js";
import { assertMediaBytesMatchType } from "./assert-media-bytes-match-type.js";

const html = Buffer.from("<!doctype html><html><body>hi</body></html>");

describe("assertMediaBytesMatchType", () => {
  it("accepts bytes that are what they declare", () => {
    expect(() => assertMediaBytesMatchType("image/png", createTinyPng(1, 1, [1, 2, 3]))).not.toThrow();
    expect(() => assertMediaBytesMatchType("image/jpeg", Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).not.toThrow();
    expect(() => assertMediaBytesMatchType("application/pdf", Buffer.from("%PDF-1.7\n"))).not.toThrow();
    expect(() => assertMediaBytesMatchType("text/plain", Buffer.from("hello"))).not.toThrow();
    expect(() => assertMediaBytesMatchType("audio/mp3", Buffer.from("ID3\u0004rest"))).not.toThrow();
    expect(() => assertMediaBytesMatchType("audio/wav", createWavFile(Buffer.alloc(16), 8000))).not.toThrow();
  });

  it("refuses HTML declared as an image, audio, video or PDF, naming the field", () => {
    for (const type of [
      "image/png",
      "image/jpeg",
      "image/webp",
      "image/heic",
      "audio/wav",
      "video/mp4",
      "application/pdf",
    ]) {
      expect(() => assertMediaBytesMatchType(type, html, "image")).toThrow(InvalidRequestError);
    }
    expect(() => assertMediaBytesMatchType("IMAGE/PNG", html, "messages[0].content[1]")).toThrow(
      "messages[0].content[1] is declared IMAGE/PNG, but its bytes are not IMAGE/PNG.",
    );
    expect(() => assertMediaBytesMatchType("text/plain", Buffer.from([0x41, 0x00, 0x42]))).toThrow(InvalidRequestError);
  });
});
