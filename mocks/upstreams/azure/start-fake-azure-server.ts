import { request } from "undici";
import type { FakeExchange } from "../shared/fake-exchange.js";
import type { FakeUpstream } from "../shared/fake-upstream.js";
import { sendJson } from "../shared/send-json.js";
import { startFakeUpstreamServer } from "../shared/start-fake-upstream-server.js";
import { startFakeOpenaiServer } from "../openai/start-fake-openai-server.js";
import { addAzureFilterResults, promptFilterResults } from "./add-azure-filter-results.js";
import { azurePromptFilteredBody, createAzureErrorBody, renderAzureStatusError } from "./azure-errors.js";
import { AzureRouteError, readAzureRoute } from "./read-azure-route.js";

export interface FakeAzureServerOptions {
  /** The resource's key, required in the `api-key` header of every request. */
  apiKey: string;
  /** Deployment name → the model it runs; any other deployment is Azure's 404 DeploymentNotFound. */
  deployments: Record<string, string>;
  /** The api-versions the resource accepts (default: a GA version and a preview one). */
  apiVersions?: readonly string[];
}

/** Words in a prompt that make the fake's content filter refuse it (Azure's 400 `content_filter`). */
export const azureFilteredPromptMarker = "forbidden-topic";

/**
 * A fake Azure OpenAI resource on 127.0.0.1. It checks what Azure checks (the `api-key` header, the path, the
 * api-version, the deployment), refuses prompts holding `forbidden-topic` with the content filter's 400, and
 * otherwise answers through an inner fake OpenAI upstream (so the replies follow the openai fake's rules, see its
 * README), annotated as Azure annotates them: `prompt_filter_results` (a first stream chunk without choices) and
 * `content_filter_results` on each choice and image. Faults as every fake (`setFaults`, `x-fake-fault`).
 */
export async function startFakeAzureServer(options: FakeAzureServerOptions): Promise<FakeUpstream> {
  const inner = await startFakeOpenaiServer();
  const apiVersions = new Set(options.apiVersions ?? ["2024-10-21", "2025-04-01-preview"]);
  const deployments = new Map(Object.entries(options.deployments));
  const outer = await startFakeUpstreamServer({
    renderErrorBody: renderAzureStatusError,
    onReset: () => inner.reset(),
    async handle(exchange) {
      if (exchange.request.headers["api-key"] !== options.apiKey)
        return sendJson(exchange, 401, renderAzureStatusError(401));
      let route: ReturnType<typeof readAzureRoute>;
      try {
        route = readAzureRoute(exchange.url, apiVersions);
      } catch (error) {
        if (!(error instanceof AzureRouteError)) throw error;
        return sendJson(exchange, error.status, renderAzureStatusError(error.status, error.message));
      }
      const json = exchange.body.value !== undefined && !Buffer.isBuffer(exchange.body.value);
      const deployment =
        route.surface === "deployments"
          ? route.deployment
          : json
            ? (exchange.body.value as { model?: unknown }).model
            : readFormField(exchange.body.raw, "model");
      if (typeof deployment !== "string" || !deployments.has(deployment))
        return sendJson(
          exchange,
          404,
          createAzureErrorBody(
            "DeploymentNotFound",
            "The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.",
          ),
        );
      if (exchange.body.raw.includes(azureFilteredPromptMarker))
        return sendJson(exchange, 400, azurePromptFilteredBody);
      // The deployment runs its model: the inner fake answers for that model, as Azure would.
      const body = json
        ? Buffer.from(JSON.stringify({ ...(exchange.body.value as object), model: deployments.get(deployment) }))
        : exchange.body.raw;
      await forward(exchange, inner.url, route.operation, body);
    },
  });
  return {
    ...outer,
    reset: () => outer.reset(),
    async close() {
      await outer.close();
      await inner.close();
    },
  };
}

/** A text field of a multipart form (the v1 surface names the deployment as the form's `model`). */
function readFormField(raw: Buffer, name: string): string | undefined {
  const match = new RegExp(`name="${name}"\\r\\n\\r\\n([^\\r]*)\\r\\n`).exec(raw.toString("latin1"));
  return match?.[1];
}

async function forward(exchange: FakeExchange, innerUrl: string, operation: string, body: Buffer): Promise<void> {
  const { resetMidStreamAfterChunks, stallAfterChunks, chunkDelayMs } = exchange.faults;
  const streamFaults = { resetMidStreamAfterChunks, stallAfterChunks, chunkDelayMs };
  const headers: Record<string, string> = { "x-fake-fault": JSON.stringify(streamFaults) };
  for (const name of ["content-type", "accept"]) {
    const value = exchange.request.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  const answer = await request(`${innerUrl}/v1/${operation}`, { method: "POST", headers, body });
  const contentType = String(answer.headers["content-type"] ?? "");
  const annotated = operation === "chat/completions" || operation.startsWith("images/");
  if (contentType.startsWith("text/event-stream")) {
    exchange.response.writeHead(answer.statusCode, { "content-type": contentType, "cache-control": "no-cache" });
    if (operation === "chat/completions")
      exchange.response.write(
        `data: ${JSON.stringify({ choices: [], created: 0, id: "", model: "", object: "", prompt_filter_results: promptFilterResults })}\n\n`,
      );
    let pending = "";
    try {
      for await (const piece of answer.body) {
        pending += (piece as Buffer).toString("utf8");
        let end = pending.indexOf("\n\n");
        while (end !== -1) {
          exchange.response.write(`${annotateEvent(pending.slice(0, end), annotated)}\n\n`);
          pending = pending.slice(end + 2);
          end = pending.indexOf("\n\n");
        }
      }
    } catch {
      exchange.resetConnection();
      return;
    }
    exchange.response.end(pending);
    return;
  }
  const bytes = Buffer.from(await answer.body.arrayBuffer());
  if (annotated && contentType.startsWith("application/json") && answer.statusCode === 200) {
    const value = JSON.parse(bytes.toString("utf8")) as Record<string, unknown>;
    addAzureFilterResults(value, { wholeAnswer: true });
    return sendJson(exchange, 200, value);
  }
  exchange.response.writeHead(answer.statusCode, { "content-type": contentType, "content-length": bytes.length });
  exchange.response.end(bytes);
}

function annotateEvent(event: string, annotated: boolean): string {
  if (!annotated || !event.startsWith("data: {")) return event;
  const chunk = JSON.parse(event.slice("data: ".length)) as Record<string, unknown>;
  if (Array.isArray(chunk.choices) && chunk.choices.length > 0) addAzureFilterResults(chunk, { wholeAnswer: false });
  return `data: ${JSON.stringify(chunk)}`;
}
