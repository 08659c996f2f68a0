// Portkey 1.15 ships its own nested @hono/node-server (1.19.x), whose response streaming does not flush SSE
// chunks the way Portkey expects; 1.13.8 does. The project pins 1.13.8 at the top level of node_modules, and this
// hook resolves Portkey's import of it from there instead of from its nested copy. Plain .mjs so the Portkey
// process runs without tsx.
const projectRoot = new URL("../../package.json", import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const fromPortkey = context.parentURL?.includes("/node_modules/@portkey-ai/gateway/");
  if (fromPortkey && (specifier === "@hono/node-server" || specifier.startsWith("@hono/node-server/"))) {
    return nextResolve(specifier, { ...context, parentURL: projectRoot });
  }
  return nextResolve(specifier, context);
}
