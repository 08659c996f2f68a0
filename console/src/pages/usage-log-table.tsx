import type { UsageLog } from "../api/management-types";
import { formatQuota } from "../format/format-quota";
import { formatTime } from "../format/format-time";

/** One page of the caller's usage log rows, newest first. */
export function UsageLogTable({ logs }: { logs: UsageLog[] }) {
  if (logs.length === 0) return <p>No requests in this range.</p>;
  return (
    <table className="responsive-table">
      <caption className="visually-hidden">Requests</caption>
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Token</th>
          <th scope="col">Model</th>
          <th scope="col">Result</th>
          <th scope="col">Prompt / completion tokens</th>
          <th scope="col">Cost</th>
          <th scope="col">Latency</th>
          <th scope="col">Request id</th>
        </tr>
      </thead>
      <tbody>
        {logs.map((log) => (
          <tr key={log.id}>
            <td data-label="Time">{formatTime(log.created_time)}</td>
            <td data-label="Token">{log.token_name}</td>
            <th scope="row" data-label="Model">
              {log.model}
              {log.is_stream && <span className="hint"> (stream)</span>}
            </th>
            <td data-label="Result">
              {log.status === "success" ? (
                <span className="success">Success</span>
              ) : (
                <span className="error">Error: {log.error_message}</span>
              )}
            </td>
            <td data-label="Prompt / completion tokens">
              {log.prompt_tokens} / {log.completion_tokens}
            </td>
            <td data-label="Cost">{formatQuota(log.quota)}</td>
            <td data-label="Latency">{log.latency_ms} ms</td>
            <td data-label="Request id">
              <code>{log.request_id}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
