import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { callFakeNative } from "./call-fake-native.js";
import type { FakeNativeUpstream } from "./fake-native-types.js";
import { signAnswerText } from "./sign-answer-text.js";
import { startFakeNativeServer } from "./start-fake-native-server.js";

let upstream: FakeNativeUpstream;
beforeAll(async () => {
  upstream = await startFakeNativeServer();
});
afterAll(() => upstream.close());
beforeEach(() => upstream.reset());

const generate = (model: string, body: unknown) =>
  callFakeNative(upstream.url, `/v1beta/models/${model}:generateContent`, body);
const streamGenerate = (model: string, body: unknown) =>
  callFakeNative(upstream.url, `/v1beta/models/${model}:streamGenerateContent?alt=sse`, body);
const user = (text: string) => ({ role: "user", parts: [{ text }] });
const tools = [
  {
    functionDeclarations: [
      { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
    ],
  },
];
const sseData = (text: string) =>
  text
    .split(/\r?\n\r?\n/)
    .filter((event) => event.startsWith("data: "))
    .map((event) => JSON.parse(event.slice("data: ".length)));

describe("thought signatures (generation 3)", () => {
  const firstTurn = async () => {
    const { status, json } = await generate("gmx-3-flash-preview", { contents: [user("Weather in Paris?")], tools });
    expect(status).toBe(200);
    return json.candidates[0].content.parts[0] as {
      functionCall: { name: string; args: unknown };
      thoughtSignature: string;
    };
  };
  const secondTurn = (callPart: Record<string, unknown>) =>
    generate("gmx-3-flash-preview", {
      contents: [
        user("Weather in Paris?"),
        { role: "model", parts: [callPart] },
        { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { temp_c: 18 } } }] },
      ],
      tools,
    });

  it("signs every function call even without a thinking config", async () => {
    const part = await firstTurn();
    expect(part.functionCall.name).toBe("get_weather");
    expect(part.thoughtSignature).toMatch(/^[A-Za-z0-9+/]+=*$/);
  });

  it("answers the next turn when the signature comes back unchanged", async () => {
    const part = await firstTurn();
    const { status, json } = await secondTurn(part);
    expect(status).toBe(200);
    expect(json.candidates[0].content.parts[0].text).toContain("Function get_weather returned");
  });

  it("refuses a function-call turn without its signature, with the real message", async () => {
    const { thoughtSignature: _dropped, ...part } = await firstTurn();
    const { status, json } = await secondTurn(part);
    expect(status).toBe(400);
    expect(json.error.status).toBe("INVALID_ARGUMENT");
    expect(json.error.message).toMatch(
      /^Function call is missing a thought_signature in functionCall parts\..*`default_api:get_weather` , position 2\./,
    );
  });

  it("refuses an altered signature, accepts the documented skip value, and leaves older turns and 2.5 alone", async () => {
    const part = await firstTurn();
    expect(
      (await secondTurn({ ...part, thoughtSignature: `${part.thoughtSignature.slice(1)}A` })).json.error.message,
    ).toBe("Corrupted thought signature.");
    expect((await secondTurn({ ...part, thoughtSignature: "skip_thought_signature_validator" })).status).toBe(200);
    const { thoughtSignature: _dropped, ...unsigned } = part;
    const earlierTurn = await generate("gmx-3-flash-preview", {
      contents: [
        user("Weather in Paris?"),
        { role: "model", parts: [unsigned] },
        { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { temp_c: 18 } } }] },
        { role: "model", parts: [{ text: "It is 18 degrees." }] },
        user("Thanks!"),
      ],
    });
    expect(earlierTurn.status).toBe(200);
    const older = await generate("gmx-2.5-flash", {
      contents: [
        user("Weather in Paris?"),
        { role: "model", parts: [unsigned] },
        { role: "user", parts: [{ functionResponse: { name: "get_weather", response: {} } }] },
      ],
    });
    expect(older.status).toBe(200);
  });
});

describe("text thought signatures (generation 3)", () => {
  it("signs the answer text on its part in JSON, and on an empty last part of the stream", async () => {
    const { json } = await generate("gmx-3-flash-preview", { contents: [user("hello there")] });
    const text = "Echo: hello there";
    const signature = signAnswerText(text);
    expect(json.candidates[0].content.parts).toEqual([{ text, thoughtSignature: signature }]);
    expect(json.candidates[0].finishReason).toBe("STOP");

    const fragments = sseData((await streamGenerate("gmx-3-flash-preview", { contents: [user("hello there")] })).text);
    const parts = fragments.map((fragment) => fragment.candidates[0].content.parts);
    expect(parts).toEqual([
      [{ text: "Echo:" }],
      [{ text: " hello" }],
      [{ text: " there" }],
      [{ text: "", thoughtSignature: signature }],
    ]);
    expect(fragments.map((fragment) => fragment.candidates[0].finishReason)).toEqual([
      undefined,
      undefined,
      undefined,
      "STOP",
    ]);
    expect(fragments.at(-1).usageMetadata.candidatesTokenCount).toBe(json.usageMetadata.candidatesTokenCount);

    const older = await generate("gmx-2.5-flash", { contents: [user("hello there")] });
    expect(older.json.candidates[0].content.parts).toEqual([{ text }]);
  });

  it("answers a follow-up whatever became of the text signature, and records whether it came back intact", async () => {
    const text = "Echo: hello there";
    const followUp = (modelParts: Array<Record<string, unknown>>) =>
      generate("gmx-3-flash-preview", {
        contents: [user("hello there"), { role: "model", parts: modelParts }, user("again")],
      });
    const cases: Array<[Array<Record<string, unknown>>, unknown]> = [
      [[{ text, thoughtSignature: signAnswerText(text) }], { content: 1, part: 0, outcome: "valid" }],
      [
        [{ text: "Echo:" }, { text: " hello there" }, { text: "", thoughtSignature: signAnswerText(text) }],
        { content: 1, part: 2, outcome: "valid" },
      ],
      [[{ text, thoughtSignature: signAnswerText("something else") }], { content: 1, part: 0, outcome: "altered" }],
      [[{ text }], { content: 1, part: null, outcome: "missing" }],
    ];
    for (const [modelParts, check] of cases) {
      upstream.reset();
      expect((await followUp(modelParts)).status).toBe(200);
      expect(upstream.requests[0]!.textSignatures).toEqual([check]);
    }
  });
});

describe("candidateCount and logprobs", () => {
  it("answers one candidate per count, each its own text, usage summed over them", async () => {
    const { status, json } = await generate("gmx-2.5-flash", {
      contents: [user("flip a coin")],
      generationConfig: { candidateCount: 2 },
    });
    expect(status).toBe(200);
    expect(json.candidates.map((candidate: any) => [candidate.index, candidate.content.parts[0].text])).toEqual([
      [0, "Echo: flip a coin"],
      [1, "(2) Echo: flip a coin"],
    ]);
    expect(json.usageMetadata.candidatesTokenCount).toBe(4 + 5);
  });

  it("streams the candidates side by side with their index, each finished once", async () => {
    const { text } = await streamGenerate("gmx-2.5-flash", {
      contents: [user("flip a coin")],
      generationConfig: { candidateCount: 2 },
    });
    const fragments = sseData(text);
    const byIndex = new Map<number, string>();
    const finished: number[] = [];
    for (const fragment of fragments) {
      for (const candidate of fragment.candidates) {
        byIndex.set(candidate.index, (byIndex.get(candidate.index) ?? "") + candidate.content.parts[0].text);
        if (candidate.finishReason) finished.push(candidate.index);
      }
    }
    expect(Object.fromEntries(byIndex)).toEqual({ 0: "Echo: flip a coin", 1: "(2) Echo: flip a coin" });
    expect(finished.sort()).toEqual([0, 1]);
    expect(fragments.at(-1).usageMetadata.candidatesTokenCount).toBe(9);
  });

  it("returns logprobsResult per decoding step with the asked number of alternatives", async () => {
    const { json } = await generate("gmx-2.5-flash", {
      contents: [user("hello")],
      generationConfig: { responseLogprobs: true, logprobs: 2 },
    });
    const result = json.candidates[0].logprobsResult;
    expect(result.chosenCandidates.map((candidate: any) => candidate.token)).toEqual(["Echo:", " hello"]);
    expect(result.topCandidates).toHaveLength(2);
    expect(result.topCandidates[0].candidates).toHaveLength(2);
    expect(result.topCandidates[0].candidates[0]).toEqual(result.chosenCandidates[0]);
    expect(result.chosenCandidates[0].logProbability).toBeLessThan(0);
  });

  it("refuses a candidateCount out of range", async () => {
    const { status, json } = await generate("gmx-2.5-flash", {
      contents: [user("hi")],
      generationConfig: { candidateCount: 9 },
    });
    expect(status).toBe(400);
    expect(json.error.message).toContain("candidateCount");
  });
});
