import type { TFunction } from "i18next";
import { ApiFailure } from "../api/api-failure";

/**
 * The text to show for a failed call: the gateway's own message, or, when the gateway could not be reached at
 * all (the browser's fetch threw), a sentence saying so in the page's language.
 */
export function describeError(error: unknown, t: TFunction): string {
  if (error instanceof TypeError) return t("errors.unreachable");
  if (error instanceof ApiFailure && error.message === "") return t("errors.status", { status: error.status });
  if (error instanceof Error) return error.message;
  return String(error);
}
