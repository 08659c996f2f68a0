export const cliUsageText = `Usage:
  npm run gateway -- user create --username <name> (--password <password> | --password-stdin)
                                 [--role user|admin] [--group <group>] [--display-name <name>]
  npm run gateway -- user set-password --username <name> (--password <password> | --password-stdin)

Uses the same environment as the gateway (DATABASE_URL, GATEWAY_SECRET, GATEWAY_CONFIG).
--password-stdin reads the password from the first line of standard input, keeping it out of
shell history and process lists. Usernames have 3 to 32 characters, passwords 8 to 128.
Exit status: 0 done, 1 failed (for example the username is taken), 2 usage error.`;
