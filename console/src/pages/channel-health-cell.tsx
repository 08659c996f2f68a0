import { useTranslation } from "react-i18next";
import type { Channel, ChannelHealth, ChannelKeyHealth } from "../api/management-types";
import type { Format } from "../format/use-format";

type HealthState = ChannelHealth["state"];
const knownReasons = new Set(["unauthorized", "forbidden", "insufficient_balance", "model_not_found"]);

/**
 * A channel's health badge (with when a cooling channel is tried again, or why it was disabled) and one badge per
 * key when it has several; what was disabled, automatically or by hand, has a button that puts it back.
 */
export function ChannelHealthCell({
  channel,
  format,
  onReEnable,
}: {
  channel: Channel;
  format: Format;
  /** The key's position, or undefined for the whole channel. */
  onReEnable: (keyIndex: number | undefined) => void;
}) {
  const { t } = useTranslation();
  const health = channel.health ?? { state: "healthy" };
  const keys = channel.key_health ?? [];
  const stateName = (state: HealthState) => t(`channels.healthStates.${state}`);
  const describeReason = (record: ChannelHealth | ChannelKeyHealth) => {
    if (record.state !== "auto_disabled" || record.reason === undefined) return undefined;
    const reason = knownReasons.has(record.reason)
      ? t(`channels.reasons.${record.reason as "unauthorized"}`)
      : record.reason;
    return t("channels.reasonWithStatus", {
      reason,
      status: record.upstream_status ?? "—",
      time: record.changed_time === undefined ? "—" : format.time(record.changed_time),
    });
  };
  const channelReason = describeReason(health);
  return (
    <div className="health">
      <span className={`status health-${health.state}`}>{stateName(health.state)}</span>
      {health.state === "cooling" && health.cooling_until !== undefined && (
        <span className="hint"> {t("channels.coolingUntil", { time: format.time(health.cooling_until) })}</span>
      )}
      {channelReason && <span className="hint"> {channelReason}</span>}
      {(health.state === "auto_disabled" || health.state === "disabled") && (
        <button
          type="button"
          onClick={() => onReEnable(undefined)}
          aria-label={t("channels.reEnableLabel", { name: channel.name })}
        >
          {t("channels.reEnable")}
        </button>
      )}
      {keys.length > 1 && (
        <ul className="key-health" aria-label={t("channels.keysLabel", { name: channel.name })}>
          {keys.map((key) => {
            const reason = describeReason(key);
            return (
              <li key={key.index}>
                <span className={`status health-${key.state}`}>
                  {t("channels.keyHealth", { index: key.index + 1, state: stateName(key.state) })}
                </span>
                {reason && <span className="hint"> {reason}</span>}
                {key.state !== "healthy" && (
                  <button
                    type="button"
                    onClick={() => onReEnable(key.index)}
                    aria-label={t("channels.reEnableKeyLabel", { name: channel.name, index: key.index + 1 })}
                  >
                    {t("channels.reEnable")}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
