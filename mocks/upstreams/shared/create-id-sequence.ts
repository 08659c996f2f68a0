export interface IdSequence {
  /** `prefix` + a zero-padded counter: deterministic, so tests and fixtures can assert ids exactly. */
  next(prefix: string): string;
  reset(): void;
}

/** `infix` goes between the prefix and the counter (two fakes standing for two accounts never make the same id). */
export function createIdSequence(infix = ""): IdSequence {
  let counter = 0;
  return {
    next(prefix) {
      counter += 1;
      return `${prefix}${infix}${String(counter).padStart(6, "0")}`;
    },
    reset() {
      counter = 0;
    },
  };
}
