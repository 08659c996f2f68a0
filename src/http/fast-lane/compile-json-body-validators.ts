import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv";

/** One spec operation the fast lane may serve: a POST with a JSON body and no parameters. */
export interface FastLaneRoute {
  path: string;
  operationId: string;
  /** The spec's operation object, as the validator exposes it in `request.openapi.schema`. */
  operation: Record<string, unknown>;
  /** Validates `{ body }` exactly as express-openapi-validator validates a JSON request body (defaults applied). */
  validateBody: ValidateFunction;
}

interface SpecOperation {
  operationId?: string;
  parameters?: unknown[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
}

const requireFromHere = createRequire(import.meta.url);
// The validator's own Ajv factory: the same Ajv class (2020-12 for OpenAPI 3.1), formats, keywords and the
// registered `#/components/schemas/…`; its options come from the validator instance built with our options.
const { createRequestAjv } = requireFromHere("express-openapi-validator/dist/framework/ajv/index.js") as {
  createRequestAjv(spec: unknown, options: unknown): { compile(schema: unknown): ValidateFunction };
};
const { OpenApiValidator } = requireFromHere("express-openapi-validator/dist/openapi.validator.js") as {
  OpenApiValidator: new (options: unknown) => { ajvOpts: { request: unknown } };
};

/**
 * Compiles the JSON request-body validators of the given operations from a bundled spec, built the way
 * express-openapi-validator builds its body validator (src/middlewares/openapi.request.validator.js: the body
 * under `properties.body`, required when the spec says so, `components` alongside for `$ref`s) with the Ajv
 * options the validator derives from `validatorOptions`. Only POST operations without parameters qualify: the
 * validator would check nothing else for them.
 */
export function compileJsonBodyValidators(
  spec: Record<string, unknown>,
  operationIds: readonly string[],
  validatorOptions: Record<string, unknown>,
): FastLaneRoute[] {
  // The constructor normalises the options it is given in place: it gets its own copies.
  const ownOptions = Object.fromEntries(
    Object.entries(validatorOptions).map(([name, value]) => [name, isPlainObject(value) ? { ...value } : value]),
  );
  const ajvOptions = new OpenApiValidator({ ...ownOptions, apiSpec: spec }).ajvOpts.request;
  // Ajv reads the schemas and never writes them (the factory only drops `x-stoplight` keys, which ours lack).
  const ajv = createRequestAjv(spec, ajvOptions);
  const paths = spec.paths as Record<
    string,
    Record<string, SpecOperation & Record<string, unknown>> & { parameters?: unknown[] }
  >;
  const routes: FastLaneRoute[] = [];
  for (const operationId of operationIds) {
    const found = Object.entries(paths).find(([, item]) => item.post?.operationId === operationId);
    if (!found) throw new Error(`fast lane: no POST operation ${operationId} in the spec`);
    const [path, item] = found;
    const operation = item.post!;
    if ((operation.parameters?.length ?? 0) > 0 || (item.parameters?.length ?? 0) > 0)
      throw new Error(`fast lane: ${operationId} has parameters`);
    const bodySchema = operation.requestBody?.content?.["application/json"]?.schema;
    if (bodySchema === undefined) throw new Error(`fast lane: ${operationId} takes no application/json body`);
    const validateBody = ajv.compile({
      components: spec.components,
      properties: { query: {}, headers: {}, params: {}, cookies: {}, body: bodySchema },
      ...(operation.requestBody?.required ? { required: ["body"] } : {}),
    });
    routes.push({ path, operationId, operation, validateBody });
  }
  return routes;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype;
}
