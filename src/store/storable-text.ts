/**
 * Text from an upstream (an error message, a task's failure reason) as the database can store it: without the NUL
 * character, which PostgreSQL's text cannot hold. Stored as it came, one such message would fail its statement (the
 * settlement with its usage row, a task's update) on PostgreSQL only.
 */
export function storableText(text: string): string {
  return text.includes("\u0000") ? text.replaceAll("\u0000", "") : text;
}
