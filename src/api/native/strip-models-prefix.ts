/** Native SDKs sometimes send the resource name (`models/gmx-3.5-flash`) where the id belongs; both mean the same model. */
export function stripModelsPrefix(model: string): string {
  return model.startsWith("models/") ? model.slice("models/".length) : model;
}
