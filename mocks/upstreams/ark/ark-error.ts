/** An ARK error answer: HTTP status plus `{error: {code, message, param, type}}`. */
export class ArkError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param = "",
  ) {
    super(message);
  }
}
