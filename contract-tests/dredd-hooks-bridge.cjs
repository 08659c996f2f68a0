// Dredd loads JavaScript hook files with require() and hands them its `hooks` object as the module "hooks".
// The hooks themselves live in TypeScript (create-dredd-hooks.ts); run-dredd.ts puts their registration function
// on globalThis before Dredd starts, and this file only passes the object across.
const register = globalThis[Symbol.for("contract-tests.register-dredd-hooks")];
if (typeof register !== "function")
  throw new Error("dredd-hooks-bridge.cjs is loaded by contract-tests/run-dredd.ts only");
register(require("hooks"));
