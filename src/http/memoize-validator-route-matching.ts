import { createRequire } from "node:module";

type PathToRegexp = (path: string, options?: { sensitive?: boolean; strict?: boolean; end?: boolean }) => unknown;

let installed = false;

/**
 * express-openapi-validator matches a request by compiling every route of the spec with path-to-regexp, on every
 * request (openapi.metadata.js, lookupRoute): about a tenth of the gateway's busy time in the benchmark's
 * profile. The compiled result depends only on the route and the options and is immutable (a non-global RegExp
 * and its key list), so the module the validator calls gets a memoized pathToRegexp. The validator reads the
 * function from the module object at call time, which is what makes this take effect; installed once per process.
 */
export function memoizeValidatorRouteMatching(): void {
  if (installed) return;
  installed = true;
  const requireFromValidator = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"));
  const pathToRegexpModule = requireFromValidator("path-to-regexp") as { pathToRegexp: PathToRegexp };
  const original = pathToRegexpModule.pathToRegexp;
  const compiled = new Map<string, unknown>();
  pathToRegexpModule.pathToRegexp = (path, options) => {
    const key = `${options?.sensitive ? 1 : 0}${options?.strict ? 1 : 0}${options?.end === false ? 0 : 1}${path}`;
    let result = compiled.get(key);
    if (result === undefined) {
      result = original(path, options);
      compiled.set(key, result);
    }
    return result;
  };
}
