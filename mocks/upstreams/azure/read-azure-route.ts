/** The OpenAI operation an Azure OpenAI path asks for, and the deployment it names (in the path or as `model`). */
export type AzureRoute =
  | { surface: "deployments"; deployment: string; operation: string; apiVersion: string }
  | { surface: "v1"; operation: string }
  | { surface: "responses-preview"; operation: "responses"; apiVersion: string };

export class AzureRouteError extends Error {
  constructor(
    readonly status: number,
    message?: string,
  ) {
    super(message ?? "Resource not found");
  }
}

/** The operations Azure OpenAI serves on a deployment (what the gateway calls). */
const deploymentOperations = new Set([
  "chat/completions",
  "embeddings",
  "images/generations",
  "images/edits",
  "audio/speech",
  "audio/transcriptions",
  "audio/translations",
]);

/**
 * Reads an Azure OpenAI path as the service does: `/openai/deployments/{deployment}/{operation}?api-version=…`
 * (a known api-version is required; Responses is not a deployment operation), `/openai/v1/{operation}` (no
 * api-version), and `/openai/responses?api-version=<preview>` (Responses on preview versions only). Anything else
 * is Azure's 404.
 */
export function readAzureRoute(url: URL, apiVersions: ReadonlySet<string>): AzureRoute {
  const path = url.pathname.replace(/\/+$/, "");
  const apiVersion = url.searchParams.get("api-version");
  const v1 = /^\/openai\/v1\/(.+)$/.exec(path);
  if (v1) {
    if (!deploymentOperations.has(v1[1]) && v1[1] !== "responses") throw new AzureRouteError(404);
    return { surface: "v1", operation: v1[1] };
  }
  if (apiVersion === null)
    throw new AzureRouteError(404, "Resource not found (the api-version query parameter is required)");
  if (!apiVersions.has(apiVersion))
    throw new AzureRouteError(404, `Resource not found (api-version ${apiVersion} is not supported)`);
  if (path === "/openai/responses") {
    if (!apiVersion.endsWith("-preview")) throw new AzureRouteError(404);
    return { surface: "responses-preview", operation: "responses", apiVersion };
  }
  const deployment = /^\/openai\/deployments\/([^/]+)\/(.+)$/.exec(path);
  if (!deployment || !deploymentOperations.has(deployment[2])) throw new AzureRouteError(404);
  return {
    surface: "deployments",
    deployment: decodeURIComponent(deployment[1]),
    operation: deployment[2],
    apiVersion,
  };
}
