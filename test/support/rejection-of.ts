import { expect } from "vitest";

/** What `promise` rejected with, asserted to be an instance of `errorType`; a promise that resolves fails the assertion. */
export async function rejectionOf<ErrorType>(
  promise: Promise<unknown>,
  errorType: abstract new (...parameters: never[]) => ErrorType,
): Promise<ErrorType> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(errorType);
  return error as ErrorType;
}
