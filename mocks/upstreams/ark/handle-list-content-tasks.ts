import type { FakeExchange } from "../shared/fake-exchange.js";
import { sendJson } from "../shared/send-json.js";
import { ArkError } from "./ark-error.js";

/**
 * `GET /api/v3/contents/generations/tasks?page_num&page_size`: ARK's task list, `{total, items[]}`. The image fake
 * keeps no generation tasks, so the page is empty; it is what the gateway's channel test reads to prove the key and
 * the base URL (the server's key check answers 401 AuthenticationError before this runs). A page number or size
 * that is not a positive integer is ARK's 400 InvalidParameter naming it.
 */
export async function handleListContentTasks(exchange: FakeExchange): Promise<void> {
  for (const name of ["page_num", "page_size"]) {
    const value = exchange.url.searchParams.get(name);
    if (value !== null && !/^[1-9]\d*$/.test(value))
      throw new ArkError(
        400,
        "InvalidParameter",
        `The parameter \`${name}\` specified in the request is not valid.`,
        name,
      );
  }
  return sendJson(exchange, 200, { total: 0, items: [] });
}
