import type { TransformStreamDefaultController } from "node:stream/web";

export interface CollectingController<Output> {
  /** Hand it to a Transformer's transform/flush in place of a TransformStream's controller. */
  controller: TransformStreamDefaultController<Output>;
  /** What was enqueued since the last call, in order. */
  take(): Output[];
  /** Set once the transformer called `terminate()`: read no more input. */
  readonly terminated: boolean;
  /** Throws the reason the transformer gave to `error()`, if it did. */
  throwIfFailed(): void;
}

/**
 * Runs a stream Transformer (the object given to `new TransformStream`) by plain calls: what it enqueues is
 * collected for the caller to write, `terminate()` and `error()` are recorded for the caller to act on. A chain of
 * web TransformStreams costs several promise hops per chunk; the stream pipes of the relay call transformers
 * directly with this instead.
 */
export function createCollectingController<Output>(): CollectingController<Output> {
  let outputs: Output[] = [];
  let failure: { reason: unknown } | undefined;
  // `terminated` is a data property set by `terminate()`, not a getter: V8 keeps an object literal with an
  // accessor in dictionary mode (slower to read on every chunk, larger per open stream).
  const collecting = {
    controller: {
      desiredSize: 1,
      enqueue(output: Output) {
        if (output !== undefined) outputs.push(output);
      },
      terminate() {
        collecting.terminated = true;
      },
      error(reason: unknown) {
        failure ??= { reason };
      },
    },
    take() {
      const taken = outputs;
      outputs = [];
      return taken;
    },
    terminated: false,
    throwIfFailed() {
      if (failure) throw failure.reason;
    },
  };
  return collecting;
}
