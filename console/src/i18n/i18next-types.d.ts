import type { en } from "./catalogue-en";

// t() accepts only keys of the English catalogue, and the Chinese one is typed to hold the same keys.
declare module "i18next" {
  interface CustomTypeOptions {
    resources: { translation: typeof en };
  }
}
