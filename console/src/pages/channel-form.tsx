import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { channelTypeValues } from "../../../generated/types/management";
import type { Channel, CreateChannelRequest } from "../api/management-types";
import { useFormSubmission } from "../components/use-form-submission";

const splitList = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/** A channel's fields. Keys are write-only: editing leaves them as they are unless new ones are typed. */
export function ChannelForm({
  channel,
  onSubmit,
  onCancel,
}: {
  channel?: Channel;
  onSubmit: (fields: CreateChannelRequest) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { busy, send, failureAlert } = useFormSubmission(onSubmit);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    // A service account key (vertex) is one JSON document, whatever its lines.
    const keys = text("keys").startsWith("{")
      ? [text("keys")]
      : text("keys")
          .split("\n")
          .map((key) => key.trim())
          .filter(Boolean);
    const mapping = Object.fromEntries(
      text("mapping")
        .split("\n")
        .map((line) => line.split("=").map((part) => part.trim()))
        .filter((pair) => pair.length === 2 && pair[0] && pair[1]),
    );
    const settings = Object.fromEntries(
      text("settings")
        .split("\n")
        .map((line) => line.split("=").map((part) => part.trim()))
        .filter((pair) => pair.length === 2 && pair[0] && pair[1]),
    );
    const fields: CreateChannelRequest = {
      name: text("name"),
      type: text("type") as CreateChannelRequest["type"],
      base_url: text("baseUrl"),
      ...(keys.length > 0 ? { keys } : {}),
      models: splitList(text("models")),
      model_mapping: mapping,
      groups: splitList(text("groups")),
      priority: Number(text("priority")) || 0,
      weight: Number(text("weight")),
      enabled: form.get("enabled") === "on",
      settings,
    };
    await send(fields);
  }

  return (
    <form className="stacked-form" onSubmit={submit}>
      {failureAlert}
      <label>
        {t("channelForm.name")}
        <input name="name" required maxLength={64} defaultValue={channel?.name} />
      </label>
      <label>
        {t("channelForm.type")}
        <select name="type" defaultValue={channel?.type ?? "openai"}>
          {channelTypeValues.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("channelForm.baseUrl")}
        <input
          name="baseUrl"
          type="url"
          required
          defaultValue={channel?.base_url}
          placeholder="https://api.example.com"
        />
      </label>
      <label>
        {channel ? t("channelForm.newKeys") : t("channelForm.keys")}
        <textarea name="keys" rows={2} required={!channel} spellCheck={false} autoComplete="off" />
      </label>
      <label>
        {t("channelForm.models")}
        <input name="models" required defaultValue={channel?.models.join(", ")} />
      </label>
      <label>
        {t("channelForm.renames")}
        <textarea
          name="mapping"
          rows={2}
          defaultValue={Object.entries(channel?.model_mapping ?? {})
            .map(([ours, upstream]) => `${ours}=${upstream}`)
            .join("\n")}
        />
      </label>
      <label>
        {t("channelForm.settings")}
        <textarea
          name="settings"
          rows={2}
          spellCheck={false}
          defaultValue={Object.entries(channel?.settings ?? {})
            .map(([key, value]) => `${key}=${value}`)
            .join("\n")}
        />
      </label>
      <label>
        {t("channelForm.groups")}
        <input name="groups" required defaultValue={channel?.groups.join(", ") ?? "default"} />
      </label>
      <div className="form-row">
        <label>
          {t("channelForm.priority")}
          <input name="priority" type="number" step={1} defaultValue={channel?.priority ?? 0} />
        </label>
        <label>
          {t("channelForm.weight")}
          <input name="weight" type="number" min={0} step={1} defaultValue={channel?.weight ?? 1} />
        </label>
      </div>
      <label className="inline">
        <input name="enabled" type="checkbox" defaultChecked={channel?.enabled ?? true} />
        {t("channelForm.enabled")}
      </label>
      <div className="form-actions">
        <button type="submit" disabled={busy}>
          {channel ? t("channelForm.save") : t("channelForm.create")}
        </button>
        <button type="button" onClick={onCancel}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
}
