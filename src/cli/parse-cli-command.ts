import { parseArgs } from "node:util";
import { CliUsageError } from "./cli-usage-error.js";

export type CliCommand =
  | { name: "help" }
  | {
      name: "user create";
      username: string;
      password: PasswordSource;
      role: string | undefined;
      group: string | undefined;
      displayName: string | undefined;
    }
  | { name: "user set-password"; username: string; password: PasswordSource };

export type PasswordSource = { from: "argument"; value: string } | { from: "stdin" };

const options = {
  username: { type: "string" },
  password: { type: "string" },
  "password-stdin": { type: "boolean" },
  role: { type: "string" },
  group: { type: "string" },
  "display-name": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const allowedOptions: Record<string, readonly string[]> = {
  "user create": ["username", "password", "password-stdin", "role", "group", "display-name"],
  "user set-password": ["username", "password", "password-stdin"],
};

/** Reads the command and its options; anything missing, unknown or repeated is a usage error. */
export function parseCliCommand(argv: readonly string[]): CliCommand {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: typeof options; allowPositionals: true; strict: true }>
  >;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    // parseArgs explains unknown options and missing values well; keep its words.
    throw new CliUsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0 || (positionals.length === 1 && positionals[0] === "help"))
    return { name: "help" };
  const name = positionals.join(" ");
  const allowed = allowedOptions[name];
  if (!allowed) throw new CliUsageError(`Unknown command "${name}".`);
  const given = Object.keys(values).filter((option) => values[option as keyof typeof values] !== undefined);
  const notAllowed = given.find((option) => !allowed.includes(option));
  if (notAllowed) throw new CliUsageError(`"${name}" does not take --${notAllowed}.`);
  if (values.username === undefined) throw new CliUsageError(`"${name}" needs --username.`);
  if ((values.password === undefined) === (values["password-stdin"] !== true)) {
    throw new CliUsageError(`"${name}" needs exactly one of --password and --password-stdin.`);
  }
  const password: PasswordSource =
    values.password !== undefined ? { from: "argument", value: values.password } : { from: "stdin" };
  if (name === "user set-password") return { name, username: values.username, password };
  return {
    name: "user create",
    username: values.username,
    password,
    role: values.role,
    group: values.group,
    displayName: values["display-name"],
  };
}
