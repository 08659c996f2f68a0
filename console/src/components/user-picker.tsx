import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { User } from "../api/management-types";
import { unwrapAnswer } from "../api/unwrap-answer";
import type { Session } from "../session";

const shownUsers = 20;
const searchDelayMs = 250;

/**
 * Picks a user for administrators instead of a typed id or name: a search box narrows the list (GET /api/user/ with
 * its keyword, matching username or display name) and a select holds the choice, submitted as the user's id under
 * `name`. The chosen user stays in the list while a later search would leave them out.
 */
export function UserPicker({
  client,
  label,
  name,
  emptyLabel,
  defaultUserId,
}: {
  client: Session["client"];
  label: string;
  name: string;
  /** The option meaning "no user chosen" (every user, for a filter). */
  emptyLabel: string;
  defaultUserId?: number;
}) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState("");
  const [users, setUsers] = useState<User[]>([]);
  const [selected, setSelected] = useState(defaultUserId === undefined ? "" : String(defaultUserId));
  const known = useRef(new Map<number, User>());

  useEffect(() => {
    let current = true;
    const search = () =>
      unwrapAnswer(
        client.GET("/api/user/", {
          params: { query: { p: 1, size: shownUsers, ...(keyword.trim() ? { keyword: keyword.trim() } : {}) } },
        }),
      ).then(
        (answer) => {
          for (const user of answer.data.items) known.current.set(user.id, user);
          if (current) setUsers(answer.data.items);
        },
        () => {
          if (current) setUsers([]);
        },
      );
    const timer = setTimeout(search, keyword === "" ? 0 : searchDelayMs);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [client, keyword]);

  const describe = (user: User) =>
    user.display_name && user.display_name !== user.username
      ? t("userPicker.userWithDisplayName", { name: user.username, displayName: user.display_name, id: user.id })
      : t("userPicker.user", { name: user.username, id: user.id });
  const selectedId = Number(selected);
  const selectedMissing = selected !== "" && !users.some((user) => user.id === selectedId);
  const selectedUser = known.current.get(selectedId);

  return (
    <>
      <label>
        {t("userPicker.search")}
        <input type="search" value={keyword} autoComplete="off" onChange={(event) => setKeyword(event.target.value)} />
      </label>
      <label>
        {label}
        <select name={name} value={selected} onChange={(event) => setSelected(event.target.value)}>
          <option value="">{emptyLabel}</option>
          {selectedMissing && (
            <option value={selected}>
              {selectedUser ? describe(selectedUser) : t("userPicker.userNumber", { id: selected })}
            </option>
          )}
          {users.map((user) => (
            <option key={user.id} value={user.id}>
              {describe(user)}
            </option>
          ))}
        </select>
        {keyword !== "" && users.length === 0 && <span className="hint">{t("userPicker.noMatch")}</span>}
      </label>
    </>
  );
}
