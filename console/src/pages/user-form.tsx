import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { UpdateUserRequest, User } from "../api/management-types";
import { useFormSubmission } from "../components/use-form-submission";

/**
 * What an administrator changes on a user: display name, status, default group, the other groups they may use,
 * whether the wallet limits them, and (root only, as the gateway enforces) the role.
 */
export function UserForm({
  user,
  mayChangeRole,
  onSubmit,
  onCancel,
}: {
  user: User;
  mayChangeRole: boolean;
  onSubmit: (changes: UpdateUserRequest) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { busy, send, failureAlert } = useFormSubmission(onSubmit);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const role = text("role");
    const changes: UpdateUserRequest = {
      display_name: text("displayName"),
      status: text("status") === "2" ? 2 : 1,
      group: text("group"),
      allowed_groups: text("allowedGroups")
        .split(/[\s,]+/)
        .filter(Boolean),
      quota_unlimited: form.get("quotaUnlimited") === "on",
      // Root's own role is not changed from here; the select only offers user and admin.
      ...(mayChangeRole && (role === "user" || role === "admin") && role !== user.role ? { role } : {}),
    };
    await send(changes);
  }

  return (
    <form className="stacked-form" onSubmit={submit}>
      {failureAlert}
      <label>
        {t("userForm.displayName")}
        <input name="displayName" required maxLength={64} defaultValue={user.display_name} />
      </label>
      <label>
        {t("userForm.status")}
        <select name="status" defaultValue={String(user.status)}>
          <option value="1">{t("userStatus.enabled")}</option>
          <option value="2">{t("userStatus.disabled")}</option>
        </select>
      </label>
      <label>
        {t("userForm.group")}
        <input name="group" required maxLength={64} defaultValue={user.group} />
      </label>
      <label>
        {t("userForm.allowedGroups")}
        <input
          name="allowedGroups"
          defaultValue={user.allowed_groups.join(", ")}
          aria-describedby="allowed-groups-hint"
        />
        <span id="allowed-groups-hint" className="hint">
          {t("userForm.allowedGroupsHint")}
        </span>
      </label>
      <label className="inline">
        <input name="quotaUnlimited" type="checkbox" defaultChecked={user.quota_unlimited} />
        {t("userForm.quotaUnlimited")}
      </label>
      {mayChangeRole && user.role !== "root" && (
        <label>
          {t("userForm.role")}
          <select name="role" defaultValue={user.role}>
            <option value="user">{t("roles.user")}</option>
            <option value="admin">{t("roles.admin")}</option>
          </select>
        </label>
      )}
      <div className="form-actions">
        <button type="submit" disabled={busy}>
          {t("userForm.save")}
        </button>
        <button type="button" onClick={onCancel}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
}
