import { describe, expect, it } from "vitest";
import { formatTranscript } from "./format-transcript.js";

const transcript = {
  task: "transcribe" as const,
  language: "english",
  duration: 62.5,
  text: "Hello there. General Kenobi.",
  segments: [
    { id: 0, start: 0, end: 1.25, text: " Hello there." },
    { id: 1, start: 1.25, end: 62.5, text: " General Kenobi." },
  ],
};

describe("formatTranscript", () => {
  it("renders every response_format from the verbose transcript", () => {
    expect(formatTranscript(transcript, "verbose_json")).toEqual({ kind: "json", body: transcript });
    expect(formatTranscript(transcript, "json")).toEqual({
      kind: "json",
      body: { text: "Hello there. General Kenobi." },
    });
    expect(formatTranscript(transcript, "text")).toEqual({
      kind: "text",
      contentType: "text/plain; charset=utf-8",
      text: "Hello there. General Kenobi.\n",
    });
    expect(formatTranscript(transcript, "srt")).toMatchObject({
      text: "1\n00:00:00,000 --> 00:00:01,250\nHello there.\n\n2\n00:00:01,250 --> 00:01:02,500\nGeneral Kenobi.\n",
    });
    expect(formatTranscript(transcript, "vtt")).toMatchObject({
      text: "WEBVTT\n\n00:00:00.000 --> 00:00:01.250\nHello there.\n\n00:00:01.250 --> 00:01:02.500\nGeneral Kenobi.\n",
    });
  });

  it("makes one cue of the whole text when the upstream gave no segments", () => {
    const { segments, ...withoutSegments } = transcript;
    void segments;
    expect(formatTranscript(withoutSegments, "srt")).toMatchObject({
      text: "1\n00:00:00,000 --> 00:01:02,500\nHello there. General Kenobi.\n",
    });
  });
});
