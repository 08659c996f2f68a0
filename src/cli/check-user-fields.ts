import { Ajv, type ErrorObject } from "ajv";
import { loadBundledSpec } from "../http/load-bundled-spec.js";
import { CliUsageError } from "./cli-usage-error.js";

interface SpecWithSchemas {
  components: { schemas: { CreateUserRequest: { properties: Record<string, unknown> } } };
}

// The API's own schema for new users, so the command line accepts exactly what POST /api/user/ accepts.
const createUserSchema = (loadBundledSpec("management") as unknown as SpecWithSchemas).components.schemas
  .CreateUserRequest;
const ajv = new Ajv({ allErrors: true, strict: false });
const validateCreateUser = ajv.compile(createUserSchema);
const validatePassword = ajv.compile(createUserSchema.properties.password as object);

const optionNames: Record<string, string> = { display_name: "--display-name" };

function describe(errors: ErrorObject[] | null | undefined, field?: string): string {
  return (errors ?? [])
    .map((error) => {
      const name = field ?? error.instancePath.replace(/^\//, "");
      const option = optionNames[name] ?? `--${name}`;
      const allowed =
        error.keyword === "enum" ? ` (${(error.params as { allowedValues: unknown[] }).allowedValues.join(", ")})` : "";
      return `${option} ${error.message ?? "is invalid"}${allowed}.`;
    })
    .join(" ");
}

/** Throws a usage error naming each option whose value POST /api/user/ would refuse. */
export function checkNewUserFields(fields: Record<string, string | undefined>): void {
  const present = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  if (!validateCreateUser(present)) throw new CliUsageError(describe(validateCreateUser.errors));
}

export function checkPassword(password: string): void {
  if (!validatePassword(password)) throw new CliUsageError(describe(validatePassword.errors, "password"));
}
