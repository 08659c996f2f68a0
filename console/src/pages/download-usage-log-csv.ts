import type { ConsoleClient } from "../api/create-console-client";
import type { AdminLogExportQuery } from "../api/management-types";
import { unwrapAnswer } from "../api/unwrap-answer";

/**
 * Fetches every user's usage log rows matching the filters as CSV (`GET /api/log/export`) with the session's access
 * token and hands the file to the browser as a download, through a short-lived object URL.
 */
export async function downloadUsageLogCsv(client: ConsoleClient, query: AdminLogExportQuery): Promise<void> {
  const csv = await unwrapAnswer(client.GET("/api/log/export", { params: { query }, parseAs: "blob" }));
  const objectUrl = URL.createObjectURL(csv);
  try {
    const link = document.createElement("a");
    link.href = objectUrl;
    link.download = "usage-log.csv";
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
  }
}
