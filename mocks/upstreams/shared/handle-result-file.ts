import type { FakeExchange } from "./fake-exchange.js";
import type { FakeResultFiles } from "./fake-result-files.js";
import { sendBody } from "./send-body.js";

/** GET /results/<name>: a file the fake stored, or a plain 404 as object storage answers. */
export async function handleResultFile(exchange: FakeExchange, files: FakeResultFiles, name: string): Promise<void> {
  const file = files.get(name);
  if (!file) return sendBody(exchange, 404, "application/xml", "<Error><Code>NoSuchKey</Code></Error>");
  await sendBody(exchange, 200, file.contentType, file.bytes);
}
