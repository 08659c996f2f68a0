import { assertCallbackUrl } from "../../callbacks/assert-callback-url.js";

/** The client's `metadata.callback_url`, checked, as a field kept with the task (every family offers callbacks). */
export function readCallbackKeep(body: Record<string, unknown>): { callback_url?: string } {
  const metadata = body.metadata as { callback_url?: unknown } | undefined;
  if (metadata?.callback_url === undefined || metadata.callback_url === "") return {};
  return { callback_url: assertCallbackUrl(metadata.callback_url) };
}
