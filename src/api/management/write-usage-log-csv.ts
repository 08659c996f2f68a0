import { once } from "node:events";
import type { Response } from "express";
import { stringify } from "csv-stringify/sync";
import type { components } from "../../../generated/types/management.js";

type AdminUsageLog = components["schemas"]["AdminUsageLog"];

const BATCH_ROWS = 1_000;
const COLUMNS = [
  "id",
  "created_time",
  "user_id",
  "username",
  "token_id",
  "token_name",
  "model",
  "channel_id",
  "group",
  "request_id",
  "is_stream",
  "prompt_tokens",
  "completion_tokens",
  "cached_tokens",
  "cache_write_tokens",
  "reasoning_tokens",
  "quota",
  "latency_ms",
  "status",
  "error_message",
] as const;

/**
 * Streams rows as CSV, newest first, reading them batch by batch by cursor (`readBatch(after, limit)`) and
 * waiting for the client to take each batch before reading the next: an export of millions of rows holds one batch
 * in memory, and a slow or gone client stops the reads. Text a client chose (token names, models, error messages)
 * that a spreadsheet would run as a formula is prefixed with a quote mark.
 */
export async function writeUsageLogCsv(
  response: Response,
  readBatch: (after: { createdTime: number; id: number } | undefined, limit: number) => Promise<AdminUsageLog[]>,
): Promise<void> {
  response.status(200);
  response.setHeader("content-type", "text/csv; charset=utf-8");
  response.setHeader("content-disposition", 'attachment; filename="usage-log.csv"');
  response.write(stringify([COLUMNS as unknown as string[]]));
  let after: { createdTime: number; id: number } | undefined;
  for (;;) {
    if (response.destroyed) return;
    const rows = await readBatch(after, BATCH_ROWS);
    if (rows.length > 0) {
      const text = stringify(rows.map((row) => COLUMNS.map((column) => toCell(row[column]))));
      if (!response.write(text)) await Promise.race([once(response, "drain"), once(response, "close")]);
      const last = rows[rows.length - 1]!;
      after = { createdTime: last.created_time, id: last.id };
    }
    if (rows.length < BATCH_ROWS) break;
  }
  response.end();
}

function toCell(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") return String(value);
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
