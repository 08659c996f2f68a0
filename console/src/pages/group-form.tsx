import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { CreateGroupRequest, Group } from "../api/management-types";
import { useFormSubmission } from "../components/use-form-submission";

/** A group's ratio, description and whether every user may pick it; the name is fixed once created. */
export function GroupForm({
  group,
  onSubmit,
  onCancel,
}: {
  group?: Group;
  onSubmit: (fields: CreateGroupRequest) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { busy, send, failureAlert } = useFormSubmission(onSubmit);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    await send({
      name: group?.name ?? text("name"),
      ratio: Number(text("ratio")),
      description: text("description"),
      selectable: form.get("selectable") === "on",
    });
  }

  return (
    <form className="stacked-form" onSubmit={submit}>
      {failureAlert}
      {!group && (
        <label>
          {t("groupForm.name")}
          <input name="name" required maxLength={64} spellCheck={false} />
        </label>
      )}
      <label>
        {t("groupForm.ratio")}
        <input name="ratio" type="number" required min={0} max={1000} step="any" defaultValue={group?.ratio ?? 1} />
      </label>
      <label>
        {t("groupForm.description")}
        <input name="description" maxLength={500} defaultValue={group?.description} />
      </label>
      <label className="inline">
        <input name="selectable" type="checkbox" defaultChecked={group?.selectable ?? false} />
        {t("groupForm.selectable")}
      </label>
      <div className="form-actions">
        <button type="submit" disabled={busy}>
          {group ? t("groupForm.save") : t("groupForm.create")}
        </button>
        <button type="button" onClick={onCancel}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
}
