/** `key` and `keys` merged in that order without repeats; undefined when the request gives neither. */
export function collectRequestKeys(request: { key?: string; keys?: string[] }): string[] | undefined {
  if (request.key === undefined && request.keys === undefined) return undefined;
  return [...new Set([...(request.key === undefined ? [] : [request.key]), ...(request.keys ?? [])])];
}
