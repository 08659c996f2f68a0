import { type FormEvent, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CreateTokenRequest, SelfModelPrice, Token, UsableGroupList } from "../api/management-types";
import { unwrapAnswer } from "../api/unwrap-answer";
import { ModalDialog } from "../components/modal-dialog";
import { Notice, type NoticeMessage } from "../components/notice";
import { PageHeading } from "../components/page-heading";
import { Pager } from "../components/pager";
import { describeError } from "../format/describe-error";
import type { Session } from "../session";
import { RevealedKeys, type RevealedKey } from "./revealed-keys";
import { TokenForm } from "./token-form";
import { TokenTable } from "./token-table";

const pageSize = 20;

/** The signed-in user's tokens: list and search, create, edit, enable or disable, delete, reveal keys. */
export function TokensPage({ session }: { session: Session }) {
  const { client } = session;
  const { t } = useTranslation();
  const [filter, setFilter] = useState({ keyword: "", token: "" });
  const [page, setPage] = useState(1);
  const [tokens, setTokens] = useState<{ items: Token[]; total: number }>();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [revealed, setRevealed] = useState<RevealedKey[]>([]);
  const [editing, setEditing] = useState<Token | "new">();
  const [notice, setNotice] = useState<NoticeMessage>();
  const [groups, setGroups] = useState<UsableGroupList>();
  const [models, setModels] = useState<SelfModelPrice[]>();

  const load = useCallback(async () => {
    const searching = filter.keyword !== "" || filter.token !== "";
    try {
      const answer = searching
        ? await unwrapAnswer(
            client.GET("/api/token/search", {
              params: {
                query: {
                  ...(filter.keyword ? { keyword: filter.keyword } : {}),
                  ...(filter.token ? { token: filter.token } : {}),
                  p: page,
                  size: pageSize,
                },
              },
            }),
          )
        : await unwrapAnswer(client.GET("/api/token/", { params: { query: { p: page, size: pageSize } } }));
      setTokens(answer.data);
      // The selection survives a reload (after revealing keys, say) for the tokens still on the page.
      const shown = new Set(answer.data.items.map((token) => token.id));
      setSelected((current) => new Set([...current].filter((id) => shown.has(id))));
    } catch (error) {
      setNotice({ kind: "error", text: describeError(error, t) });
    }
  }, [client, filter, page, t]);
  useEffect(() => {
    void load();
  }, [load]);
  // The groups this user may put on a token, for the form's picker; without them the form offers its defaults.
  useEffect(() => {
    unwrapAnswer(client.GET("/api/user/self/groups")).then(
      (answer) => setGroups(answer.data),
      () => setGroups(undefined),
    );
    // The models those groups reach, for the model limits: picked from this list, never typed.
    unwrapAnswer(client.GET("/api/pricing/self")).then(
      (answer) => setModels(answer.data.items),
      () => setModels([]),
    );
  }, [client]);

  async function act(action: () => Promise<string>) {
    try {
      setNotice({ kind: "success", text: await action() });
    } catch (error) {
      setNotice({ kind: "error", text: describeError(error, t) });
    }
    await load();
  }

  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPage(1);
    setFilter({ keyword: String(form.get("keyword")).trim(), token: String(form.get("token")).trim() });
  }

  const setStatus = (token: Token, status: 1 | 2) =>
    act(async () => {
      await unwrapAnswer(
        client.PUT("/api/token/", { params: { query: { status_only: true } }, body: { id: token.id, status } }),
      );
      return status === 1 ? t("tokens.enabled", { name: token.name }) : t("tokens.disabled", { name: token.name });
    });
  const remove = (token: Token) => {
    if (!window.confirm(t("tokens.confirmDelete", { name: token.name }))) return;
    void act(async () => {
      await unwrapAnswer(client.DELETE("/api/token/{id}", { params: { path: { id: token.id } } }));
      return t("tokens.deleted", { count: 1, name: token.name });
    });
  };
  const removeSelected = () => {
    if (!window.confirm(t("tokens.confirmDeleteSelected", { count: selected.size }))) return;
    void act(async () => {
      const answer = await unwrapAnswer(client.POST("/api/token/batch", { body: { ids: [...selected] } }));
      return t("tokens.deletedSelected", { count: answer.data });
    });
  };
  const reveal = (token: Token) =>
    act(async () => {
      const answer = await unwrapAnswer(client.POST("/api/token/{id}/key", { params: { path: { id: token.id } } }));
      setRevealed([{ id: token.id, name: token.name, key: answer.data.key }]);
      return t("tokens.keyShown", { name: token.name });
    });
  const revealSelected = () =>
    act(async () => {
      const ids = [...selected];
      const answer = await unwrapAnswer(client.POST("/api/token/batch/keys", { body: { ids } }));
      const names = new Map(tokens?.items.map((token) => [token.id, token.name]));
      setRevealed(
        Object.entries(answer.data.keys).map(([id, key]) => ({
          id: Number(id),
          name: names.get(Number(id)) ?? id,
          key,
        })),
      );
      return t("tokens.keysShown", { count: Object.keys(answer.data.keys).length });
    });
  // A failed save throws back to the form, which keeps the user's input and shows the gateway's message.
  const save = async (fields: CreateTokenRequest) => {
    if (editing === "new") {
      await unwrapAnswer(client.POST("/api/token/", { body: fields }));
      setNotice({ kind: "success", text: t("tokens.created", { count: fields.count ?? 1, name: fields.name }) });
    } else if (editing) {
      const { count: _count, ...changes } = fields;
      await unwrapAnswer(client.PUT("/api/token/", { body: { id: editing.id, ...changes } }));
      setNotice({ kind: "success", text: t("tokens.saved", { name: fields.name }) });
    }
    setEditing(undefined);
    await load();
  };

  return (
    <>
      <PageHeading>{t("tokens.title")}</PageHeading>
      <search>
        <form className="toolbar" aria-label={t("tokens.searchLabel")} onSubmit={search}>
          <label>
            {t("tokens.nameContains")}
            <input name="keyword" defaultValue={filter.keyword} />
          </label>
          <label>
            {t("tokens.keyContains")}
            <input name="token" defaultValue={filter.token} spellCheck={false} />
          </label>
          <button type="submit">{t("tokens.search")}</button>
        </form>
      </search>
      <div className="toolbar">
        <button type="button" onClick={() => setEditing("new")}>
          {t("tokens.new")}
        </button>
        <button type="button" disabled={selected.size === 0} onClick={revealSelected}>
          {t("tokens.showSelected", { count: selected.size })}
        </button>
        <button type="button" disabled={selected.size === 0} onClick={removeSelected}>
          {t("tokens.deleteSelected", { count: selected.size })}
        </button>
      </div>
      <Notice notice={notice} />
      {revealed.length > 0 && <RevealedKeys keys={revealed} onHide={() => setRevealed([])} />}
      {tokens && (
        <>
          <TokenTable
            tokens={tokens.items}
            selected={selected}
            onSelect={setSelected}
            onEdit={setEditing}
            onSetStatus={setStatus}
            onReveal={reveal}
            onDelete={remove}
          />
          <Pager page={page} pageSize={pageSize} total={tokens.total} label={t("tokens.pages")} onPage={setPage} />
        </>
      )}
      {editing && (
        <ModalDialog
          title={editing === "new" ? t("tokens.new") : t("tokens.editLabel", { name: editing.name })}
          onClose={() => setEditing(undefined)}
        >
          <TokenForm
            token={editing === "new" ? undefined : editing}
            groups={groups}
            models={models}
            onSubmit={save}
            onCancel={() => setEditing(undefined)}
          />
        </ModalDialog>
      )}
    </>
  );
}
