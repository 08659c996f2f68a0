const apiPrefixes = ["/api", "/v1", "/v1beta", "/llm-api"];

/** Whether a path belongs to one of the APIs (even one with no such route), so the console never answers it. */
export function isApiPath(path: string): boolean {
  return apiPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
