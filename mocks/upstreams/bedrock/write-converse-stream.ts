import { EventStreamCodec } from "@smithy/eventstream-codec";
import type { FakeExchange } from "../shared/fake-exchange.js";
import type { ConverseReply } from "./plan-converse-reply.js";

const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);

/** How the stream should go wrong, chosen by a marker in the prompt. */
export type ConverseStreamFault = "bad-crc" | "broken-frame" | "stream-exception" | undefined;

function eventFrame(eventType: string, payload: object): Uint8Array {
  return codec.encode({
    headers: {
      ":event-type": { type: "string", value: eventType },
      ":content-type": { type: "string", value: "application/json" },
      ":message-type": { type: "string", value: "event" },
    },
    body: new TextEncoder().encode(JSON.stringify(payload)),
  });
}

/**
 * A Converse stream as Bedrock sends it: binary AWS event stream frames (prelude, headers, JSON payload, CRCs)
 * encoded by AWS's own codec. Text streams word by word; a tool use starts a block and streams its input JSON in two
 * halves. Faults after the third frame: a frame whose message CRC is wrong, a frame cut in half, or an exception
 * frame (`modelStreamErrorException`).
 */
export function writeConverseStream(exchange: FakeExchange, reply: ConverseReply, fault: ConverseStreamFault): void {
  const frames: Uint8Array[] = [eventFrame("messageStart", { role: "assistant" })];
  reply.blocks.forEach((block, contentBlockIndex) => {
    if ("text" in block) {
      block.text.split(" ").forEach((word, index) => {
        const text = index === 0 ? word : ` ${word}`;
        frames.push(eventFrame("contentBlockDelta", { contentBlockIndex, delta: { text } }));
      });
    } else {
      const { toolUseId, name, input } = block.toolUse;
      frames.push(eventFrame("contentBlockStart", { contentBlockIndex, start: { toolUse: { toolUseId, name } } }));
      const json = JSON.stringify(input);
      const half = Math.floor(json.length / 2);
      for (const piece of [json.slice(0, half), json.slice(half)])
        frames.push(eventFrame("contentBlockDelta", { contentBlockIndex, delta: { toolUse: { input: piece } } }));
    }
    frames.push(eventFrame("contentBlockStop", { contentBlockIndex }));
  });
  frames.push(eventFrame("messageStop", { stopReason: reply.stopReason }));
  frames.push(eventFrame("metadata", { usage: reply.usage, metrics: { latencyMs: 42 } }));

  exchange.response.writeHead(200, {
    "content-type": "application/vnd.amazon.eventstream",
    "x-amzn-requestid": "fake-request-000001",
  });
  for (const [index, frame] of frames.entries()) {
    if (fault !== undefined && index === 3) {
      if (fault === "bad-crc") {
        const corrupted = Buffer.from(frame);
        corrupted[corrupted.length - 1]! ^= 0xff;
        exchange.response.write(corrupted);
      } else if (fault === "broken-frame") exchange.response.write(frame.subarray(0, Math.floor(frame.length / 2)));
      else
        exchange.response.write(
          codec.encode({
            headers: {
              ":exception-type": { type: "string", value: "modelStreamErrorException" },
              ":content-type": { type: "string", value: "application/json" },
              ":message-type": { type: "string", value: "exception" },
            },
            body: new TextEncoder().encode(JSON.stringify({ message: "The model stream failed." })),
          }),
        );
      exchange.response.end();
      return;
    }
    exchange.response.write(frame);
  }
  exchange.response.end();
}
