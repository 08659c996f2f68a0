import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { loadBundledSpec } from "../../src/http/load-bundled-spec.js";

/**
 * Validates values against a component schema of the bundled /v1 spec (OpenAPI 3.1 schemas are JSON Schema 2020-12).
 * Returns the errors as readable text, empty when the value conforms, so a test can `expect(errors).toEqual([])`.
 */
export function createOpenaiSchemaValidator(): (schemaName: string, value: unknown) => string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(loadBundledSpec("openai"), "openai.json");
  return (schemaName, value) => {
    const validate = ajv.getSchema(`openai.json#/components/schemas/${schemaName}`);
    if (!validate) throw new Error(`no schema ${schemaName} in the bundled openai spec`);
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (error) => `${error.instancePath || "/"} ${error.message ?? ""} ${JSON.stringify(error.params)}`,
    );
  };
}
