/** A command line the CLI cannot run: it prints the message and the usage, and exits with status 2. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CliUsageError";
  }
}
