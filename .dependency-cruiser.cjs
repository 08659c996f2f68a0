/**
 * The gateway's layers, bottom to top: shared utilities → provider contract → upstream transport → provider
 * adapters → relay / tasks / channels / billing → API handlers → composition root (src/create-gateway.ts).
 * An import never points up. `npm run lint:deps` checks it; the test command runs it too.
 * @type {import('dependency-cruiser').IConfiguration}
 */

// Modules any layer may import: errors, logging, network safety, keys, HTTP helpers, model-name rules, the video
// request's vocabulary, the prompt token estimate, the tracing hooks (an interface and its holder; OpenTelemetry
// itself is loaded only by start-tracing.ts), and plain type modules (the configuration's shape, metered usage and
// the reservation, the stored rows' types).
const shared = [
  "^src/(errors|logging|net|keys|http|models|video)/",
  "^src/billing/estimate-prompt-tokens\\.ts$",
  "^src/config/gateway-config\\.ts$",
  "^src/config/parse-cors-origins\\.ts$",
  "^src/auth/ip/allow-list\\.ts$",
  "^src/billing/(metered-usage|billing-service)\\.ts$",
  "^src/store/[^/]+/[^/]+-record\\.ts$",
  "^src/tracing/tracing-hooks\\.ts$",
];
const contract = "^src/providers/contract/";
const upstream = "^src/upstream/";
// Provider code that several providers share on purpose: the Anthropic Messages wire format (spoken by the
// anthropic, vertex and bedrock channels and by openai's /v1/messages translation) and the image families (the
// request rules of image models that several upstreams serve) and the shared translations (OpenAI-surface requests
// and answers several providers translate the same way: embedding inputs, the embedding list and its token estimate,
// Responses input as chat messages with the gateway's thought-signature round trip). Two providers compose another on purpose and may
// import it, nothing else: azure is the openai protocol with Azure's paths and key header, vertex is the native
// (Gemini) protocol, and Claude's for Anthropic's publisher models, with Vertex's endpoints and OAuth. No other
// provider imports another.
const sharedProviderCode = [
  "^src/providers/anthropic-wire/",
  "^src/providers/image-families/",
  "^src/providers/shared-translations/",
];

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No import cycle among src/ modules, type imports included.",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "contract-imports-only-shared",
      comment:
        "The provider contract is the bottom of the provider layers: it imports generated types and shared modules only.",
      severity: "error",
      from: { path: contract },
      to: { path: "^src/", pathNot: [contract, ...shared] },
    },
    {
      name: "upstream-imports-only-contract-and-shared",
      comment:
        "The transport sits under the adapters: it knows the contract and shared modules, never a provider or the orchestration above.",
      severity: "error",
      from: { path: upstream },
      to: { path: "^src/", pathNot: [upstream, contract, ...shared] },
    },
    {
      name: "providers-import-only-contract-upstream-shared",
      comment:
        "A provider imports its own folder, the contract, the transport and shared modules; never relay/, tasks/, api/, channels/, config/, another provider or the registry.",
      severity: "error",
      from: {
        path: "^src/providers/([^/]+)/",
        pathNot: [contract, "^src/providers/(azure|vertex)/", "\\.test\\.ts$"],
      },
      to: { path: "^src/", pathNot: ["^src/providers/$1/", contract, upstream, ...sharedProviderCode, ...shared] },
    },
    ...[
      ["azure", "openai"],
      ["vertex", "(native|anthropic)"],
    ].map(([provider, composed]) => ({
      name: `${provider}-composes-only-${composed}`,
      comment: `${provider} speaks the ${composed} protocol: besides the usual layers it may import the ${composed} provider, no other.`,
      severity: "error",
      from: { path: `^src/providers/${provider}/`, pathNot: ["\\.test\\.ts$"] },
      to: {
        path: "^src/",
        pathNot: [
          `^src/providers/${provider}/`,
          `^src/providers/${composed}/`,
          contract,
          upstream,
          ...sharedProviderCode,
          ...shared,
        ],
      },
    })),
    {
      name: "only-the-composition-root-imports-the-registry",
      comment:
        "The registry imports every adapter; only the composition root (and tests of the registry) may import it, and hand the adapters down.",
      severity: "error",
      from: { path: "^src/", pathNot: ["^src/create-gateway\\.ts$", "\\.test\\.ts$"] },
      to: { path: "^src/providers/registry\\.ts$" },
    },
  ],
  options: {
    includeOnly: "^(src|generated)/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    combinedDependencies: false,
    reporterOptions: {
      archi: { collapsePattern: "^src/providers/[^/]+|^src/[^/]+" },
    },
  },
};
