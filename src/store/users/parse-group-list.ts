/** A stored JSON list of group names (`users.allowed_groups`); anything else reads as none. */
export function parseGroupList(stored: string): string[] {
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed.filter((entry): entry is string => typeof entry === "string") : [];
  } catch {
    return [];
  }
}
