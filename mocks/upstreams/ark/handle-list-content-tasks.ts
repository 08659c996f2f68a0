import type { FakeExchange } from "../shared/fake-exchange.js";
import { sendJson } from "../shared/send-json.js";
import { renderArkErrorBody } from "./render-ark-error-body.js";

/**
 * `GET /api/v3/contents/generations/tasks?page_num&page_size`: ARK's task list, `{total, items[]}`. The page is
 * always empty (a simplification: the video fake does not page the tasks it holds, and the image fake holds none);
 * it is what the gateway's channel test reads to prove the key and the base URL (each server's key check answers
 * 401 AuthenticationError before this runs). Both ARK fakes route it, so a channel pointed at either passes its
 * test. A page number or size that is not a positive integer is ARK's 400 InvalidParameter naming it.
 */
export async function handleListContentTasks(exchange: FakeExchange): Promise<void> {
  for (const name of ["page_num", "page_size"]) {
    const value = exchange.url.searchParams.get(name);
    if (value !== null && !/^[1-9]\d*$/.test(value))
      return sendJson(
        exchange,
        400,
        renderArkErrorBody(
          400,
          `The parameter \`${name}\` specified in the request is not valid.`,
          "InvalidParameter",
          name,
        ),
      );
  }
  return sendJson(exchange, 200, { total: 0, items: [] });
}
