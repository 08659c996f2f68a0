import { type FormEvent, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { UpdateUserRequest, User } from "../api/management-types";
import { unwrapAnswer } from "../api/unwrap-answer";
import { ModalDialog } from "../components/modal-dialog";
import { Notice, type NoticeMessage } from "../components/notice";
import { PageHeading } from "../components/page-heading";
import { Pager } from "../components/pager";
import { describeError } from "../format/describe-error";
import { useFormat } from "../format/use-format";
import type { Session } from "../session";
import { UserForm } from "./user-form";
import { UserPasswordForm } from "./user-password-form";
import { UserTable } from "./user-table";
import { UserTopUpForm } from "./user-top-up-form";

const pageSize = 20;

type Editing = { action: "edit" | "topUp" | "password"; user: User };

/** Every user, for administrators: search and page, edit, top up the wallet, reset the password, delete. */
export function UsersPage({ session }: { session: Session }) {
  const { client } = session;
  const { t } = useTranslation();
  const format = useFormat();
  const [keyword, setKeyword] = useState("");
  const [page, setPage] = useState(1);
  const [users, setUsers] = useState<{ items: User[]; total: number }>();
  const [editing, setEditing] = useState<Editing>();
  const [notice, setNotice] = useState<NoticeMessage>();

  const load = useCallback(async () => {
    try {
      const answer = await unwrapAnswer(
        client.GET("/api/user/", {
          params: { query: { ...(keyword ? { keyword } : {}), p: page, size: pageSize } },
        }),
      );
      setUsers(answer.data);
    } catch (error) {
      setNotice({ kind: "error", text: describeError(error, t) });
    }
  }, [client, keyword, page, t]);
  useEffect(() => {
    void load();
  }, [load]);

  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPage(1);
    setKeyword(String(new FormData(event.currentTarget).get("keyword") ?? "").trim());
  }

  const remove = (user: User) => {
    if (!window.confirm(t("users.confirmDelete", { name: user.username }))) return;
    void (async () => {
      try {
        await unwrapAnswer(client.DELETE("/api/user/{id}", { params: { path: { id: user.id } } }));
        setNotice({ kind: "success", text: t("users.deleted", { name: user.username }) });
      } catch (error) {
        setNotice({ kind: "error", text: describeError(error, t) });
      }
      await load();
    })();
  };
  // The forms below throw a failed call back to themselves, which keep the input and show the gateway's message.
  const finish = async (text: string) => {
    setEditing(undefined);
    setNotice({ kind: "success", text });
    await load();
  };
  const save = async (user: User, changes: UpdateUserRequest) => {
    await unwrapAnswer(client.PUT("/api/user/{id}", { params: { path: { id: user.id } }, body: changes }));
    await finish(t("users.saved", { name: user.username }));
  };
  const topUp = async (user: User, delta: number, reason: string) => {
    const answer = await unwrapAnswer(
      client.POST("/api/user/{id}/quota", { params: { path: { id: user.id } }, body: { delta, reason } }),
    );
    await finish(t("users.toppedUp", { name: user.username, amount: format.quota(answer.data.balance_after) }));
  };
  const resetPassword = async (user: User, password: string) => {
    await unwrapAnswer(
      client.PUT("/api/user/{id}/password", { params: { path: { id: user.id } }, body: { password } }),
    );
    await finish(t("users.passwordReset", { name: user.username }));
  };

  const close = () => setEditing(undefined);
  const titles = {
    edit: (user: User) => t("users.editLabel", { name: user.username }),
    topUp: (user: User) => t("users.topUpLabel", { name: user.username }),
    password: (user: User) => t("users.passwordLabel", { name: user.username }),
  };
  return (
    <>
      <PageHeading>{t("users.title")}</PageHeading>
      <search>
        <form className="toolbar" aria-label={t("users.searchLabel")} onSubmit={search}>
          <label>
            {t("users.nameContains")}
            <input name="keyword" maxLength={64} defaultValue={keyword} />
          </label>
          <button type="submit">{t("users.search")}</button>
        </form>
      </search>
      <Notice notice={notice} />
      {users && (
        <>
          <UserTable
            users={users.items}
            onEdit={(user) => setEditing({ action: "edit", user })}
            onTopUp={(user) => setEditing({ action: "topUp", user })}
            onResetPassword={(user) => setEditing({ action: "password", user })}
            onDelete={remove}
          />
          <Pager page={page} pageSize={pageSize} total={users.total} label={t("users.pages")} onPage={setPage} />
        </>
      )}
      {editing && (
        <ModalDialog title={titles[editing.action](editing.user)} onClose={close}>
          {editing.action === "edit" && (
            <UserForm
              user={editing.user}
              mayChangeRole={session.user.role === "root"}
              onSubmit={(changes) => save(editing.user, changes)}
              onCancel={close}
            />
          )}
          {editing.action === "topUp" && (
            <UserTopUpForm
              user={editing.user}
              onSubmit={(delta, reason) => topUp(editing.user, delta, reason)}
              onCancel={close}
            />
          )}
          {editing.action === "password" && (
            <UserPasswordForm onSubmit={(password) => resetPassword(editing.user, password)} onCancel={close} />
          )}
        </ModalDialog>
      )}
    </>
  );
}
