import type { ConsoleClient } from "../api/create-console-client";
import { unwrapAnswer } from "../api/unwrap-answer";

/**
 * Fetches one batch of redemption codes as CSV (`GET /api/redemption/export`) with the session's access token and
 * hands the file to the browser as a download, through a short-lived object URL. The codes themselves are not in
 * it: the gateway only keeps their hashes.
 */
export async function downloadRedemptionBatchCsv(client: ConsoleClient, name: string): Promise<void> {
  const csv = await unwrapAnswer(
    client.GET("/api/redemption/export", { params: { query: { name } }, parseAs: "blob" }),
  );
  const objectUrl = URL.createObjectURL(csv);
  try {
    const link = document.createElement("a");
    link.href = objectUrl;
    link.download = "redemption-codes.csv";
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
  }
}
