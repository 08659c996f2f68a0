import { describe, expect, it } from "vitest";
import { convertNativePartsToMessage } from "./convert-native-parts-to-message.js";

const options = { includeThoughts: true, createToolCallId: (callIndex: number) => `call_${callIndex}` };

describe("convertNativePartsToMessage", () => {
  it("decides thought or answer per part, and drops thoughts unless they are included", () => {
    const parts = [
      { text: "thinking", thought: true },
      { text: "answer" },
      { thought: true, thoughtSignature: "c2ln" },
    ];
    expect(convertNativePartsToMessage(parts, options)).toEqual({
      content: "answer",
      reasoning_content: "thinking",
      tool_calls: [],
      textThoughtSignature: null,
    });
    expect(convertNativePartsToMessage(parts, { ...options, includeThoughts: false })).toEqual({
      content: "answer",
      reasoning_content: null,
      tool_calls: [],
      textThoughtSignature: null,
    });
  });

  it("keeps the signature of a text part, the last one when several parts carry one, empty text included", () => {
    const converted = convertNativePartsToMessage(
      [
        { text: "Hello", thoughtSignature: "Zmlyc3Q=" },
        { text: " world" },
        { functionCall: { name: "f", args: {} }, thoughtSignature: "Y2FsbA==" },
        { text: "", thoughtSignature: "bGFzdA==" },
      ],
      options,
    );
    expect(converted.content).toBe("Hello world");
    expect(converted.textThoughtSignature).toBe("bGFzdA==");
    expect(converted.tool_calls[0]!.id).toBe("call_0__thought__Y2FsbA==");
  });

  it("numbers generated call ids from firstCallIndex and serialises the args", () => {
    const converted = convertNativePartsToMessage(
      [{ functionCall: { name: "f", args: { a: [1, "ü"] } } }, { functionCall: { name: "g" } }],
      { ...options, firstCallIndex: 2 },
    );
    expect(converted.content).toBeNull();
    expect(converted.tool_calls).toEqual([
      { id: "call_2", type: "function", function: { name: "f", arguments: '{"a":[1,"ü"]}' } },
      { id: "call_3", type: "function", function: { name: "g", arguments: "{}" } },
    ]);
  });

  it("fences code with more backticks than the code holds and reports failed runs", () => {
    const converted = convertNativePartsToMessage(
      [
        { executableCode: { language: "PYTHON", code: 'print("```")' } },
        { codeExecutionResult: { outcome: "OUTCOME_FAILED", output: "Traceback: boom\n" } },
      ],
      options,
    );
    expect(converted.content).toBe(
      '\n````python\nprint("```")\n````\n\nExecution ended with OUTCOME_FAILED:\n```output\nTraceback: boom\n```\n',
    );
  });

  it("embeds images as markdown images and other media as markdown links", () => {
    const converted = convertNativePartsToMessage(
      [
        { inlineData: { mimeType: "image/webp", data: "UklGR" } },
        { inlineData: { mimeType: "application/pdf", data: "JVBER" } },
        { fileData: { mimeType: "video/mp4", fileUri: "https://example.com/a clip (1).mp4" } },
      ],
      options,
    );
    expect(converted.content).toBe(
      "![image](data:image/webp;base64,UklGR)[application/pdf](data:application/pdf;base64,JVBER)[video/mp4](https://example.com/a%20clip%20%281%29.mp4)",
    );
  });

  it("gives the same content for parts converted one by one as all at once", () => {
    const parts = [
      { text: "a" },
      { executableCode: { language: "PYTHON", code: "1" } },
      { codeExecutionResult: { outcome: "OUTCOME_OK", output: "1" } },
      { text: "b" },
    ];
    const whole = convertNativePartsToMessage(parts, options).content;
    const pieces = parts.map((part) => convertNativePartsToMessage([part], options).content).join("");
    expect(pieces).toBe(whole);
  });
});
