/**
 * Text from an upstream (an error message, a task's failure reason) as the database can store it: without the NUL
 * character, which PostgreSQL's text cannot hold. Stored as it came, one such message would fail its statement (the
 * settlement with its usage row, a task's update) on PostgreSQL only.
 */
export function storableText(text: string): string {
  return text.includes("\u0000") ? text.replaceAll("\u0000", "") : text;
}

/**
 * Whether a caller's id can name anything stored: no stored id holds NUL, and PostgreSQL refuses a statement that
 * compares with it (400 `invalid_text`), while SQLite finds nothing. A lookup of such an id answers "not found" on
 * both without asking the database (a video task's id in a path, a `previous_response_id`).
 */
export function canNameStoredRow(id: string): boolean {
  return !id.includes("\u0000");
}
