// Preloaded with `node --import`: records the URL of every module the process resolves into the file named by
// LOADED_MODULES_FILE, so a test can tell which packages a gateway loaded.
import { register } from "node:module";

register("./record-loaded-modules-hooks.mjs", import.meta.url, { data: { file: process.env.LOADED_MODULES_FILE } });
