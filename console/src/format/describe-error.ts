import type { TFunction } from "i18next";
import { ApiFailure } from "../api/api-failure.js";
import { knownGatewayMessages, statusSummaryKey } from "./gateway-error-texts.js";

/**
 * The text to show for a failed call, in the page's language: a sentence of the gateway the console knows is said
 * in the catalogue's words; another one is shown as the gateway wrote it, after a summary of its HTTP status in the
 * page's language (English pages show the gateway's sentence alone); when the gateway could not be reached at all
 * (the browser's fetch threw), a sentence saying so.
 */
export function describeError(error: unknown, t: TFunction): string {
  if (error instanceof TypeError) return t("errors.unreachable");
  if (error instanceof ApiFailure) {
    if (error.message === "") return t("errors.status", { status: error.status });
    for (const known of knownGatewayMessages) {
      const match = error.message.match(known.pattern);
      // The values fit the matched key's placeholders; i18next's types cannot follow a key chosen at run time.
      if (match) return String(t(`errors.known.${known.key}`, (known.values?.(match) ?? {}) as never));
    }
    const summaryKey = statusSummaryKey(error.status);
    const summary = summaryKey ? t(`errors.statuses.${summaryKey}`) : t("errors.status", { status: error.status });
    return t("errors.withGatewayText", { summary, message: error.message });
  }
  if (error instanceof Error) return error.message;
  return String(error);
}
