import { useTranslation } from "react-i18next";
import type { User } from "../api/management-types";
import { useFormat } from "../format/use-format";

/** One page of users with their wallets and each user's actions. */
export function UserTable({
  users,
  onEdit,
  onTopUp,
  onResetPassword,
  onDelete,
}: {
  users: User[];
  onEdit: (user: User) => void;
  onTopUp: (user: User) => void;
  onResetPassword: (user: User) => void;
  onDelete: (user: User) => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  if (users.length === 0) return <p>{t("users.none")}</p>;
  const roleNames: Record<User["role"], string> = {
    user: t("roles.user"),
    admin: t("roles.admin"),
    root: t("roles.root"),
  };
  return (
    <table className="responsive-table">
      <caption className="visually-hidden">{t("users.caption")}</caption>
      <thead>
        <tr>
          <th scope="col">{t("users.username")}</th>
          <th scope="col">{t("users.displayName")}</th>
          <th scope="col">{t("users.role")}</th>
          <th scope="col">{t("users.status")}</th>
          <th scope="col">{t("users.groups")}</th>
          <th scope="col">{t("users.wallet")}</th>
          <th scope="col">{t("users.used")}</th>
          <th scope="col">{t("common.actions")}</th>
        </tr>
      </thead>
      <tbody>
        {users.map((user) => (
          <tr key={user.id}>
            <th scope="row" data-label={t("users.username")}>
              {user.username}
            </th>
            <td data-label={t("users.displayName")}>{user.display_name}</td>
            <td data-label={t("users.role")}>{roleNames[user.role]}</td>
            <td data-label={t("users.status")}>
              <span className={`status status-${user.status}`}>
                {user.status === 1 ? t("userStatus.enabled") : t("userStatus.disabled")}
              </span>
            </td>
            <td data-label={t("users.groups")}>
              {[user.group, ...user.allowed_groups].join(t("users.groupSeparator"))}
            </td>
            <td data-label={t("users.wallet")}>
              {user.quota_unlimited ? t("wallet.unlimited") : format.quota(user.quota)}
            </td>
            <td data-label={t("users.used")}>{format.quota(user.used_quota)}</td>
            <td data-label={t("common.actions")}>
              <div className="row-actions">
                <button
                  type="button"
                  onClick={() => onEdit(user)}
                  aria-label={t("users.editLabel", { name: user.username })}
                >
                  {t("common.edit")}
                </button>
                <button
                  type="button"
                  onClick={() => onTopUp(user)}
                  aria-label={t("users.topUpLabel", { name: user.username })}
                >
                  {t("users.topUp")}
                </button>
                <button
                  type="button"
                  onClick={() => onResetPassword(user)}
                  aria-label={t("users.passwordLabel", { name: user.username })}
                >
                  {t("users.resetPassword")}
                </button>
                <button
                  type="button"
                  onClick={() => onDelete(user)}
                  aria-label={t("users.deleteLabel", { name: user.username })}
                >
                  {t("common.delete")}
                </button>
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
