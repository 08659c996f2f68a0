const maximumEchoedLength = 64;

/**
 * A value the client sent, cut to a short prefix before it is echoed in an error message or a log line: a 1 MB
 * `model` must not come back whole in the answer nor fill the log.
 */
export function shortenClientValue(value: string): string {
  if (value.length <= maximumEchoedLength) return value;
  return `${value.slice(0, maximumEchoedLength)}… (${value.length} characters)`;
}
