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
  let terminated = false;
  let failure: { reason: unknown } | undefined;
  return {
    controller: {
      desiredSize: 1,
      enqueue(output) {
        if (output !== undefined) outputs.push(output);
      },
      terminate() {
        terminated = true;
      },
      error(reason) {
        failure ??= { reason };
      },
    },
    take() {
      const taken = outputs;
      outputs = [];
      return taken;
    },
    get terminated() {
      return terminated;
    },
    throwIfFailed() {
      if (failure) throw failure.reason;
    },
  };
}
