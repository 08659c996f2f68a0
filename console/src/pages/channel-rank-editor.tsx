import { type FormEvent, type KeyboardEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Channel } from "../api/management-types";

/**
 * Priority and weight of one channel, edited in its row and saved together on Enter or when focus leaves the pair
 * (moving from one field to the other saves nothing yet).
 */
export function ChannelRankEditor({
  channel,
  onSave,
}: {
  channel: Channel;
  onSave: (rank: { priority: number; weight: number }) => void;
}) {
  const { t } = useTranslation();
  const [priority, setPriority] = useState(String(channel.priority));
  const [weight, setWeight] = useState(String(channel.weight));
  const save = (event?: FormEvent | KeyboardEvent) => {
    event?.preventDefault();
    const rank = { priority: Number(priority), weight: Number(weight) };
    if (!Number.isInteger(rank.priority) || !Number.isInteger(rank.weight) || rank.weight < 0) return;
    if (rank.priority === channel.priority && rank.weight === channel.weight) return;
    onSave(rank);
  };
  return (
    <form
      className="rank-editor"
      onSubmit={save}
      // Two fields and no submit button: a browser submits such a form on Enter in neither, so Enter is read here.
      onKeyDown={(event) => {
        if (event.key === "Enter") save(event);
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) save();
      }}
    >
      <input
        type="number"
        step={1}
        value={priority}
        onChange={(event) => setPriority(event.target.value)}
        aria-label={t("channels.priorityLabel", { name: channel.name })}
      />
      <span aria-hidden="true"> / </span>
      <input
        type="number"
        step={1}
        min={0}
        value={weight}
        onChange={(event) => setWeight(event.target.value)}
        aria-label={t("channels.weightLabel", { name: channel.name })}
      />
    </form>
  );
}
