import type { Readable, Writable } from "node:stream";
import { loadConfig } from "../config/load-config.js";
import { GatewayError } from "../errors/gateway-error.js";
import { hashPassword } from "../keys/hash-password.js";
import type { GatewayDatabase } from "../store/gateway-database.js";
import { openDatabase } from "../store/open-database.js";
import { findUserByUsername } from "../store/users/find-user-by-username.js";
import { setUserPassword } from "../store/users/set-user-password.js";
import { createUserAccount } from "../users/create-user-account.js";
import { toUserView } from "../users/to-user-view.js";
import { checkNewUserFields, checkPassword } from "./check-user-fields.js";
import { CliUsageError } from "./cli-usage-error.js";
import { cliUsageText } from "./cli-usage-text.js";
import { parseCliCommand, type CliCommand, type PasswordSource } from "./parse-cli-command.js";
import { readPasswordFromStdin } from "./read-password-from-stdin.js";

export interface CliStreams {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  environment: Record<string, string | undefined>;
}

type UserCommand = Exclude<CliCommand, { name: "help" }>;

async function resolvePassword(source: PasswordSource, stdin: Readable): Promise<string> {
  return source.from === "argument" ? source.value : readPasswordFromStdin(stdin);
}

async function runUserCommand(command: UserCommand, database: GatewayDatabase, password: string): Promise<unknown> {
  const now = () => Math.floor(Date.now() / 1000);
  if (command.name === "user create") {
    const user = await createUserAccount(
      { database, now },
      "cli",
      {
        username: command.username,
        password,
        ...(command.role ? { role: command.role as "user" | "admin" } : {}),
        ...(command.group ? { group: command.group } : {}),
        ...(command.displayName ? { display_name: command.displayName } : {}),
        // The operator's administrators spend without a wallet, as root does; ordinary users start empty.
      },
      command.role === "admin" ? "unlimited" : 0,
    );
    return toUserView(user);
  }
  if (!(await setUserPassword(database.db, command.username, await hashPassword(password)))) {
    throw new GatewayError(`No user named ${command.username}.`, { status: 404, code: "not_found" });
  }
  return toUserView((await findUserByUsername(database.db, command.username))!);
}

/**
 * The operator's command line: creates users (any role but root) and sets passwords, straight in the database
 * the gateway uses, so the first administrator can exist before anyone can sign in. Returns the exit status.
 */
export async function runGatewayCli(argv: readonly string[], streams: CliStreams): Promise<number> {
  let command: CliCommand;
  let password: string;
  try {
    command = parseCliCommand(argv);
    if (command.name === "help") {
      streams.stdout.write(`${cliUsageText}\n`);
      return 0;
    }
    password = await resolvePassword(command.password, streams.stdin);
    if (command.name === "user create") {
      checkNewUserFields({
        username: command.username,
        password,
        role: command.role,
        group: command.group,
        display_name: command.displayName,
      });
    } else {
      checkPassword(password);
    }
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    streams.stderr.write(`gateway: ${error.message}\n\n${cliUsageText}\n`);
    return 2;
  }

  let database: GatewayDatabase | undefined;
  try {
    database = await openDatabase(loadConfig(streams.environment).databaseUrl);
    const user = await runUserCommand(command, database, password);
    streams.stdout.write(`${JSON.stringify(user, null, 2)}\n`);
    return 0;
  } catch (error) {
    // A taken username, a bad DATABASE_URL, an unreachable database: all are the operator's to read.
    streams.stderr.write(`gateway: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await database?.close();
  }
}
