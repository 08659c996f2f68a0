import { runGatewayCli } from "./run-gateway-cli.js";

// Entry of `npm run gateway -- …`; everything testable lives in runGatewayCli.
process.exitCode = await runGatewayCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  environment: process.env,
});
