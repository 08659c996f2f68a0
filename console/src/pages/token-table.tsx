import type { Token } from "../api/management-types";
import { describeTokenStatus } from "../format/describe-token-status";
import { formatQuota } from "../format/format-quota";
import { formatTime } from "../format/format-time";

/** One page of tokens with a selection column for the batch actions and each token's own actions. */
export function TokenTable({
  tokens,
  selected,
  onSelect,
  onEdit,
  onSetStatus,
  onReveal,
  onDelete,
}: {
  tokens: Token[];
  selected: Set<number>;
  onSelect: (selected: Set<number>) => void;
  onEdit: (token: Token) => void;
  onSetStatus: (token: Token, status: 1 | 2) => void;
  onReveal: (token: Token) => void;
  onDelete: (token: Token) => void;
}) {
  if (tokens.length === 0) return <p>No tokens.</p>;
  const allSelected = tokens.every((token) => selected.has(token.id));
  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelect(next);
  };
  return (
    <table className="responsive-table">
      <caption className="visually-hidden">Your tokens</caption>
      <thead>
        <tr>
          <th scope="col">
            <input
              type="checkbox"
              aria-label="Select all tokens on this page"
              checked={allSelected}
              onChange={() => onSelect(new Set(allSelected ? [] : tokens.map((token) => token.id)))}
            />
          </th>
          <th scope="col">Name</th>
          <th scope="col">Key</th>
          <th scope="col">Status</th>
          <th scope="col">Remaining quota</th>
          <th scope="col">Used</th>
          <th scope="col">Expires</th>
          <th scope="col">Limits</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {tokens.map((token) => (
          <tr key={token.id}>
            <td data-label="Select">
              <input
                type="checkbox"
                aria-label={`Select token ${token.name}`}
                checked={selected.has(token.id)}
                onChange={() => toggle(token.id)}
              />
            </td>
            <th scope="row" data-label="Name">
              {token.name}
            </th>
            <td data-label="Key">
              <code className="masked-key">{token.key}</code>
            </td>
            <td data-label="Status">
              <span className={`status status-${token.status}`}>{describeTokenStatus(token.status)}</span>
            </td>
            <td data-label="Remaining quota">
              {token.unlimited_quota ? "Unlimited" : formatQuota(token.remain_quota)}
            </td>
            <td data-label="Used">{formatQuota(token.used_quota)}</td>
            <td data-label="Expires">{token.expired_time === -1 ? "Never" : formatTime(token.expired_time)}</td>
            <td data-label="Limits">{describeLimits(token)}</td>
            <td data-label="Actions">
              <div className="row-actions">
                <button type="button" onClick={() => onEdit(token)} aria-label={`Edit token ${token.name}`}>
                  Edit
                </button>
                <button
                  type="button"
                  onClick={() => onSetStatus(token, token.status === 1 ? 2 : 1)}
                  aria-label={`${token.status === 1 ? "Disable" : "Enable"} token ${token.name}`}
                >
                  {token.status === 1 ? "Disable" : "Enable"}
                </button>
                <button type="button" onClick={() => onReveal(token)} aria-label={`Show key of token ${token.name}`}>
                  Show key
                </button>
                <button type="button" onClick={() => onDelete(token)} aria-label={`Delete token ${token.name}`}>
                  Delete
                </button>
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function describeLimits(token: Token): string {
  const parts: string[] = [];
  if (token.model_limits_enabled) parts.push(`models: ${token.model_limits || "none"}`);
  if (token.rpm_limit > 0) parts.push(`${token.rpm_limit} requests/min`);
  if (token.tpm_limit > 0) parts.push(`${token.tpm_limit} tokens/min`);
  if (token.allow_ips) parts.push(`IPs: ${token.allow_ips.split(/[\n,]+/).join(", ")}`);
  parts.push(
    `group: ${token.group || "own"}${token.group === "auto" && token.cross_group_retry ? " (cross-group retry)" : ""}`,
  );
  return parts.join("; ");
}
