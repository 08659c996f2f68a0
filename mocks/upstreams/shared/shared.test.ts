import { describe, expect, it } from "vitest";
import { createFaultSchedule } from "./create-fault-schedule.js";
import { formatSseEvent } from "./format-sse-event.js";
import { parseFaultHeader } from "./parse-fault-header.js";
import { parseSseTranscript } from "./parse-sse-transcript.js";
import { splitIntoPieces } from "./split-into-pieces.js";

describe("formatSseEvent", () => {
  it("frames data-only and named events", () => {
    expect(formatSseEvent({ data: "[DONE]" })).toBe("data: [DONE]\n\n");
    expect(formatSseEvent({ event: "response.created", data: "{}" })).toBe("event: response.created\ndata: {}\n\n");
  });

  it("splits multi-line data into data lines and rejects line breaks in the event name", () => {
    expect(formatSseEvent({ data: "a\nb" })).toBe("data: a\ndata: b\n\n");
    expect(() => formatSseEvent({ event: "x\ndata: forged", data: "{}" })).toThrow(/CR or LF/);
  });

  it("round-trips through parseSseTranscript", () => {
    const events = [{ data: "one" }, { event: "named", data: "two\nlines" }];
    expect(parseSseTranscript(events.map(formatSseEvent).join(""))).toEqual(events);
  });
});

describe("createFaultSchedule", () => {
  it("applies a plan without times until cleared", () => {
    const schedule = createFaultSchedule();
    schedule.set({ status: 500 });
    expect(schedule.take()).toEqual({ status: 500 });
    expect(schedule.take()).toEqual({ status: 500 });
    schedule.clear();
    expect(schedule.take()).toEqual({});
  });

  it("counts times down and then stops", () => {
    const schedule = createFaultSchedule();
    schedule.set({ status: 429, times: 2 });
    expect(schedule.take().status).toBe(429);
    expect(schedule.take().status).toBe(429);
    expect(schedule.take()).toEqual({});
  });
});

describe("parseFaultHeader", () => {
  it("reads a JSON plan and rejects malformed ones", () => {
    expect(parseFaultHeader(undefined)).toBeUndefined();
    expect(parseFaultHeader('{"status":503,"retryAfterSeconds":2}')).toEqual({ status: 503, retryAfterSeconds: 2 });
    expect(() => parseFaultHeader("nope")).toThrow(/JSON object/);
    expect(() => parseFaultHeader('{"status":"503"}')).toThrow(/status must be a number/);
  });
});

describe("splitIntoPieces", () => {
  it("keeps leading spaces so pieces concatenate back to the text", () => {
    expect(splitIntoPieces("Echo: a b")).toEqual(["Echo:", " a", " b"]);
    expect(splitIntoPieces("")).toEqual([]);
  });
});
