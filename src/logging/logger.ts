import fs from "node:fs";
import pino from "pino";
import { scrubSecrets } from "./scrub-secrets.js";
import { serializeErrorForLog } from "./serialize-error-for-log.js";

export type Logger = pino.Logger;

export interface LoggerOptions {
  level: string;
  /** Append log lines to this file instead of standard output (the test suite scans it for leaked keys). */
  file?: string;
}

/**
 * Every line passes through scrubSecrets on its way out, so a key that slipped into an error message or a
 * logged object is masked however it got there; the redact paths stop the usual carriers earlier, and errors are
 * written by serializeErrorForLog (message, code, status, request id), never with their payload.
 */
export function createLogger(options: LoggerOptions): Logger {
  const destination = options.file ? fs.createWriteStream(options.file, { flags: "a" }) : process.stdout;
  const scrubbingStream = { write: (line: string) => destination.write(scrubSecrets(line)) };
  return pino(
    {
      level: options.level,
      serializers: { err: serializeErrorForLog },
      redact: {
        paths: [
          "req.headers.authorization",
          'req.headers["x-goog-api-key"]',
          'req.headers["x-native-api-key"]',
          "headers.authorization",
          "key",
          "apiKey",
          "upstreamKey",
        ],
        censor: "[redacted]",
      },
    },
    scrubbingStream,
  );
}
