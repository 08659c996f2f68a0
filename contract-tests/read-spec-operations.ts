import fs from "node:fs";
import path from "node:path";
import type { ApiGeneration } from "../src/http/api-generation.js";

export interface SpecParameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  schema: Record<string, unknown>;
  example: unknown;
}

export interface SpecOperation {
  generation: ApiGeneration;
  operationId: string;
  method: string;
  pathTemplate: string;
  summary: string;
  /** Documented response statuses, for example ["200", "400", "401"]. */
  responseStatuses: string[];
  requestContentTypes: string[];
  successContentTypes: string[];
  requiresAuthentication: boolean;
  parameters: SpecParameter[];
  /** The first JSON request example (media-type `example`, else the first of `examples`). */
  exampleJsonBody: unknown;
  jsonBodySchema: Record<string, unknown> | undefined;
  /** The multipart example's text fields, and the file fields with the media types they accept. */
  exampleMultipartFields: Record<string, unknown> | undefined;
  multipartFileFields: Array<{ name: string; contentType: string }>;
  /** The JSON response schema per documented status (unresolved; resolve against `document`). */
  jsonResponseSchemas: Record<string, unknown>;
  document: Record<string, unknown>;
}

type JsonObject = Record<string, unknown>;

export const projectRoot = path.resolve(import.meta.dirname, "..");
export const apiGenerations: ApiGeneration[] = ["management", "openai", "native", "anthropic"];
const methods = ["get", "put", "post", "delete", "patch", "head", "options"];

export function readBundledSpecText(generation: ApiGeneration): string {
  return fs.readFileSync(path.join(projectRoot, "generated", "openapi", `${generation}.json`), "utf8");
}

function resolve(spec: JsonObject, value: unknown): unknown {
  let current = value;
  for (let depth = 0; depth < 20 && current && typeof current === "object" && "$ref" in current; depth += 1) {
    const reference = (current as { $ref: string }).$ref;
    if (!reference.startsWith("#/")) throw new Error(`Only local $ref is supported, got ${reference}`);
    current = reference
      .slice(2)
      .split("/")
      .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"))
      .reduce<unknown>((node, segment) => (node as JsonObject | undefined)?.[segment], spec);
  }
  return current;
}

function firstExample(spec: JsonObject, holder: JsonObject | undefined): unknown {
  if (!holder) return undefined;
  if (holder.example !== undefined) return holder.example;
  const examples = holder.examples;
  if (Array.isArray(examples)) return examples[0];
  if (examples && typeof examples === "object") {
    const first = Object.values(examples)[0];
    return (resolve(spec, first) as JsonObject | undefined)?.value;
  }
  return undefined;
}

function readParameter(spec: JsonObject, raw: unknown): SpecParameter {
  const parameter = resolve(spec, raw) as JsonObject;
  const schema = (resolve(spec, parameter.schema) as JsonObject | undefined) ?? {};
  const example =
    firstExample(spec, parameter) ??
    firstExample(spec, schema) ??
    schema.default ??
    (Array.isArray(schema.enum) ? schema.enum[0] : undefined);
  return {
    name: String(parameter.name),
    in: parameter.in as SpecParameter["in"],
    required: parameter.required === true,
    schema,
    example,
  };
}

/** Every operation of a bundled spec, with what the contract harness needs to call it. */
export function readSpecOperations(
  generation: ApiGeneration,
  spec: JsonObject = JSON.parse(readBundledSpecText(generation)),
): SpecOperation[] {
  const operations: SpecOperation[] = [];
  const globalSecurity = spec.security as unknown[] | undefined;
  for (const [pathTemplate, rawItem] of Object.entries(spec.paths as JsonObject)) {
    const item = resolve(spec, rawItem) as JsonObject;
    const sharedParameters = ((item.parameters as unknown[]) ?? []).map((parameter) => readParameter(spec, parameter));
    for (const method of methods) {
      const operation = item[method] as JsonObject | undefined;
      if (!operation) continue;
      const ownParameters = ((operation.parameters as unknown[]) ?? []).map((parameter) =>
        readParameter(spec, parameter),
      );
      const parameters = [
        ...sharedParameters.filter(
          (shared) => !ownParameters.some((own) => own.name === shared.name && own.in === shared.in),
        ),
        ...ownParameters,
      ];
      const requestBody = resolve(spec, operation.requestBody) as JsonObject | undefined;
      const requestContent = (requestBody?.content as Record<string, JsonObject> | undefined) ?? {};
      const responses = operation.responses as JsonObject;
      const success = resolve(spec, responses["200"] ?? responses["201"]) as JsonObject | undefined;
      const security = (operation.security as unknown[] | undefined) ?? globalSecurity ?? [];
      const jsonContent = requestContent["application/json"];
      const multipartContent = requestContent["multipart/form-data"];
      const multipartSchema = resolve(spec, multipartContent?.schema) as JsonObject | undefined;
      const multipartProperties = (multipartSchema?.properties as Record<string, JsonObject> | undefined) ?? {};
      const multipartRequired = (multipartSchema?.required as string[] | undefined) ?? [];
      const multipartExample = firstExample(spec, multipartContent) as JsonObject | undefined;
      const isFile = (property: JsonObject) =>
        property.format === "binary" || (property.items as JsonObject | undefined)?.format === "binary";
      const multipartFileFields = Object.entries(multipartProperties)
        .filter(
          ([name, property]) =>
            isFile(resolve(spec, property) as JsonObject) &&
            (multipartRequired.includes(name) || multipartExample?.[name] !== undefined),
        )
        .map(([name]) => ({
          name,
          contentType: String(
            ((multipartContent?.encoding as Record<string, JsonObject> | undefined)?.[name]?.contentType as
              | string
              | undefined) ?? "application/octet-stream",
          )
            .split(",")[0]
            .trim(),
        }));
      operations.push({
        generation,
        operationId: String(operation.operationId),
        method: method.toUpperCase(),
        pathTemplate,
        summary: String(operation.summary ?? ""),
        responseStatuses: Object.keys(responses),
        requestContentTypes: Object.keys(requestContent),
        successContentTypes: Object.keys((success?.content as JsonObject | undefined) ?? {}),
        requiresAuthentication: security.length > 0,
        parameters,
        exampleJsonBody: firstExample(spec, jsonContent),
        jsonBodySchema: resolve(spec, jsonContent?.schema) as JsonObject | undefined,
        exampleMultipartFields: multipartExample
          ? Object.fromEntries(
              Object.entries(multipartExample).filter(
                ([name]) => !multipartFileFields.some((field) => field.name === name),
              ),
            )
          : undefined,
        multipartFileFields,
        jsonResponseSchemas: Object.fromEntries(
          Object.entries(responses).map(([status, response]) => [
            status,
            ((resolve(spec, response) as JsonObject | undefined)?.content as Record<string, JsonObject> | undefined)?.[
              "application/json"
            ]?.schema,
          ]),
        ),
        document: spec,
      });
    }
  }
  return operations;
}
