/** A DashScope error answer: HTTP status plus `{code, message, request_id}`. */
export class DashscopeError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
