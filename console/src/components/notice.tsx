export interface NoticeMessage {
  kind: "error" | "success";
  text: string;
}

/** The outcome of the last action: failures as alerts (read at once), successes as polite status messages. */
export function Notice({ notice }: { notice: NoticeMessage | undefined }) {
  return (
    <div aria-live="polite" className="notice-area">
      {notice?.kind === "error" && (
        <p role="alert" className="error">
          {notice.text}
        </p>
      )}
      {notice?.kind === "success" && (
        <p role="status" className="success">
          {notice.text}
        </p>
      )}
    </div>
  );
}
