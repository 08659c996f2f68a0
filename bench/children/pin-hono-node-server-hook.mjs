// Portkey 1.15 installs its own nested @hono/node-server (1.19.x), with which its streamed chat answers fail
// with a 500 here; with 1.13.8 they stream chunk by chunk (checked with a 200 ms chunk delay). The project
// pins 1.13.8 at the top level of node_modules; this hook resolves Portkey's import of it from there instead
// of from its nested copy. Plain .mjs so the Portkey process runs without tsx.
const projectRoot = new URL("../../package.json", import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const fromPortkey = context.parentURL?.includes("/node_modules/@portkey-ai/gateway/");
  if (fromPortkey && (specifier === "@hono/node-server" || specifier.startsWith("@hono/node-server/"))) {
    return nextResolve(specifier, { ...context, parentURL: projectRoot });
  }
  return nextResolve(specifier, context);
}
