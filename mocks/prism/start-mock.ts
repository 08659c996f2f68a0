import { startPrismMock } from "./start-prism-mock.js";

// `npm run mock`: the three specs served by Prism on one origin, for frontend teams and SDK users.
const port = Number(process.env.MOCK_PORT ?? 4010);
const mock = await startPrismMock({ port, internalPortBase: port + 1 });
console.log(`Prism mock of the gateway listening on ${mock.url} (management /api, OpenAI-style /v1, native /v1beta)`);
console.log(`Try: curl -H 'Authorization: Bearer sk-test' ${mock.url}/v1/models`);
const stop = () => void mock.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
