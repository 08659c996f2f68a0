export interface IdSequence {
  /** `prefix` + a zero-padded counter: deterministic, so tests and fixtures can assert ids exactly. */
  next(prefix: string): string;
  reset(): void;
}

export function createIdSequence(): IdSequence {
  let counter = 0;
  return {
    next(prefix) {
      counter += 1;
      return `${prefix}${String(counter).padStart(6, "0")}`;
    },
    reset() {
      counter = 0;
    },
  };
}
