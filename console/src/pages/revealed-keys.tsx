import { CopyableSecret } from "../components/copyable-secret";

export interface RevealedKey {
  id: number;
  name: string;
  key: string;
}

/** Full keys the user asked to see, as `sk-<key>` (the form clients send), each with a copy button. */
export function RevealedKeys({ keys, onHide }: { keys: RevealedKey[]; onHide: () => void }) {
  return (
    <section className="revealed-keys" aria-labelledby="revealed-keys-heading">
      <h2 id="revealed-keys-heading">Full keys</h2>
      <p className="hint">Keep these secret: anyone with a key can spend its quota.</p>
      {keys.map((entry) => (
        <CopyableSecret key={entry.id} label={`Key of ${entry.name}`} value={`sk-${entry.key}`} />
      ))}
      <button type="button" onClick={onHide}>
        Hide keys
      </button>
    </section>
  );
}
