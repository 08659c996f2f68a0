/** The text to show for a failed call: the gateway's own message, or what the browser reported. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
