import type { ServerResponse } from "node:http";

export interface SseEventOptions {
  event?: string;
  id?: string;
}

export interface SseWriter {
  /** Writes one event; resolves once the socket can take more (backpressure), or at once when it is closed. */
  send(data: string, options?: SseEventOptions): Promise<void>;
  /** Writes bytes that are already SSE-framed (a pass-through stream). */
  sendRaw(chunk: string | Uint8Array): Promise<void>;
  /**
   * Writes the stream's final frames (`[DONE]`, `response.completed`, the native last chunk), or keeps them for
   * the relay when it holds them (holdFinalFrames) until the request's settlement has committed.
   */
  sendFinal(chunk: string | Uint8Array): Promise<void>;
  close(): void;
  readonly closed: boolean;
}

const lineBreak = /[\r\n]/;

const heldFinalFrames = new WeakMap<ServerResponse, Array<string | Uint8Array>>();

/**
 * The relay asks this before a stream runs: its final frames wait until the request is settled, so a client that
 * received the whole stream was billed, whatever happens to the process after (a crash before the settlement's
 * commit leaves the client with a stream that never finished, and the hold refunded by recovery).
 */
export function holdFinalFrames(response: ServerResponse): void {
  heldFinalFrames.set(response, []);
}

/** The final frames kept for `response` (and the hold lifted): the relay writes them once the settlement committed. */
export function releaseFinalFrames(response: ServerResponse): Array<string | Uint8Array> {
  const held = heldFinalFrames.get(response) ?? [];
  heldFinalFrames.delete(response);
  return held;
}

function assertSingleLine(field: string, value: string): void {
  // A CR or LF in event or id would let a value forge further events in the stream.
  if (lineBreak.test(value)) throw new Error(`SSE ${field} must not contain CR or LF`);
}

/** The one writer every stream of the gateway goes through: headers with the first event, framing, backpressure. */
export function createSseWriter(response: ServerResponse): SseWriter {
  response.statusCode = 200;
  response.setHeader("Content-Type", "text/event-stream; charset=utf-8");
  response.setHeader("Cache-Control", "no-cache, no-transform");
  response.setHeader("Connection", "keep-alive");
  response.setHeader("X-Accel-Buffering", "no");
  // The headers go out with the first event (one write and one wake-up of the client). Until then nothing has
  // reached the client, so an upstream that fails before its first event can still be retried on another channel
  // (run-relay.ts retries only while the headers are unsent), and a last failure is still answered in JSON.

  const write = (chunk: string | Uint8Array): Promise<void> => {
    if (writer.closed || response.writableEnded) return Promise.resolve();
    if (response.write(chunk)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        response.off("drain", done);
        response.off("close", done);
        resolve();
      };
      response.on("drain", done);
      response.on("close", done);
    });
  };

  // `closed` is a data property kept up to date, not a getter: V8 keeps an object literal with an accessor in
  // dictionary mode (slower to read, larger per open stream).
  const writer = {
    send(data: string, options: SseEventOptions = {}): Promise<void> {
      let frame = "";
      if (options.event !== undefined) {
        assertSingleLine("event", options.event);
        frame += `event: ${options.event}\n`;
      }
      if (options.id !== undefined) {
        assertSingleLine("id", options.id);
        frame += `id: ${options.id}\n`;
      }
      for (const line of data.split(/\r\n|\r|\n/)) frame += `data: ${line}\n`;
      return write(`${frame}\n`);
    },
    sendRaw: write,
    sendFinal(chunk: string | Uint8Array): Promise<void> {
      const held = heldFinalFrames.get(response);
      if (held === undefined || writer.closed) return write(chunk);
      held.push(chunk);
      return Promise.resolve();
    },
    close() {
      if (!response.writableEnded) response.end();
      writer.closed = true;
    },
    closed: false,
  };
  response.on("close", () => {
    writer.closed = true;
  });
  return writer;
}
