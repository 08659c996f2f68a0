/** An answer with `success: false`; the message is the gateway's, shown to the user as it comes. */
export class ApiFailure extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}
