import { parseArgs } from "node:util";
import { startFakeOpenaiServer } from "./start-fake-openai-server.js";

/**
 * `npm run fake-upstream`: the fake OpenAI-compatible provider as a standalone process, for a first local try of the
 * gateway without a provider account (README, first steps). It answers any model name with deterministic replies and
 * usage, on 127.0.0.1 and a fixed port (4010; `--port` or FAKE_UPSTREAM_PORT to change it), and needs no key.
 */
const defaultPort = 4010;
const { values } = parseArgs({ options: { port: { type: "string" } } });
const portText = values.port ?? process.env.FAKE_UPSTREAM_PORT ?? String(defaultPort);
const port = Number(portText);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`fake-upstream: port must be a whole number from 0 to 65535, got "${portText}".`);
  process.exit(2);
}

const upstream = await startFakeOpenaiServer({ port }).catch((error: Error) => {
  console.error(`fake-upstream: cannot listen on 127.0.0.1:${port}: ${error.message}`);
  process.exit(1);
});
console.log(`fake OpenAI-compatible upstream at ${upstream.url} (any model, e.g. gpt-4o-mini; Ctrl-C stops it)`);
// Tests read what the fake recorded; a long-running one keeps only the last few minutes' worth.
setInterval(() => upstream.requests.splice(0, Math.max(0, upstream.requests.length - 1000)), 60_000).unref();

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    void upstream.close().then(() => process.exit(0));
  });
