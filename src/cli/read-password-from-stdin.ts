import type { Readable } from "node:stream";

/** The first line of standard input, without its line ending (as `docker login --password-stdin` reads it). */
export async function readPasswordFromStdin(stdin: Readable): Promise<string> {
  let text = "";
  for await (const chunk of stdin) {
    text += typeof chunk === "string" ? chunk : (chunk as Buffer).toString("utf8");
    if (text.includes("\n")) break;
  }
  return text.split(/\r?\n/, 1)[0] ?? "";
}
