// Loaded with `node --import` before Portkey's gateway: registers the resolve hook below.
import { register } from "node:module";

register(new URL("./pin-hono-node-server-hook.mjs", import.meta.url));
