import * as OpenApiValidator from "express-openapi-validator";
import { loadBundledSpec } from "../src/http/load-bundled-spec.js";
const m = OpenApiValidator.middleware({ apiSpec: loadBundledSpec("openai") as never, fileUploader: {} }) as unknown as Array<{name:string}>;
console.log(m.map((x) => x.name));
