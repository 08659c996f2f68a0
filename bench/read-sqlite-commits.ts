/** The gateway's `gateway_sqlite_commits_total` from its /metrics (the bench gateway sets no METRICS_TOKEN). */
export async function readSqliteCommits(gatewayUrl: string): Promise<number> {
  const exposition = await (await fetch(`${gatewayUrl}/metrics`)).text();
  const commits = /^gateway_sqlite_commits_total (\d+)/m.exec(exposition)?.[1];
  if (commits === undefined) throw new Error("the gateway's /metrics has no gateway_sqlite_commits_total");
  return Number(commits);
}
