/** DashScope's task times: `YYYY-MM-DD HH:MM:SS.mmm` (UTC here). */
export function formatDashscopeTime(epochMs: number): string {
  return new Date(epochMs).toISOString().replace("T", " ").replace("Z", "");
}
