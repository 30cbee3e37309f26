import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { ApiProblem } from './api.ts';

/** The page's heading: sets the document title and takes focus after a navigation, for screen readers. */
export function PageTitle({ children, title }: { children: ReactNode; title: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Caisse dashboard`;
    if (document.activeElement && document.activeElement !== document.body) ref.current?.focus();
  }, [title]);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
}

export function messageOf(error: unknown): string {
  if (error instanceof ApiProblem) return error.message;
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}

export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <div className="notice error" role="alert">
      {messageOf(error)}
    </div>
  );
}

/** A polite live region: announces what just happened without moving focus. */
export function StatusNotice({ children, tone = 'success' }: { children: ReactNode; tone?: 'success' | 'info' | 'warning' }) {
  return (
    <div className={`notice ${tone}`} role="status">
      {children}
    </div>
  );
}

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Loads `fn()` when `key` changes; `reload()` loads again. */
export function useLoad<T>(fn: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  const fnRef = useRef(fn);
  fnRef.current = fn;
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    fnRef.current().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => live && setState({ error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [key, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

const TONES: Record<string, string> = {
  SUCCEEDED: 'ok',
  PAID: 'ok',
  available: 'ok',
  succeeded: 'ok',
  active: 'ok',
  enabled: 'ok',
  PENDING: 'info',
  pending: 'info',
  PROCESSING: 'info',
  FAILED: 'bad',
  failed: 'bad',
  revoked: 'bad',
  disabled: 'bad',
  EXPIRED: 'warn',
  expired: 'warn',
  expiring: 'warn',
  CANCELED: 'warn',
  PARTIALLY_REFUNDED: 'warn',
  REFUNDED: 'warn',
};

export function Badge({ value, label }: { value: string; label?: string }) {
  return <span className={`badge ${TONES[value] ?? ''}`}>{label ?? value.replace(/_/g, ' ').toLowerCase()}</span>;
}

/** A table that scrolls sideways on small screens; focusable so keyboard users can scroll it too. */
export function TableWrap({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** A secret shown once, with a copy button. */
export function SecretField({ label, value, hint }: { label: string; value: string; hint?: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {hint && <span className="hint">{hint}</span>}
      </label>
      <div className="secret-box">
        <input id={id} readOnly value={value} onFocus={(e) => e.currentTarget.select()} spellCheck={false} />
        <button
          type="button"
          className="secondary"
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(() => setCopied(true), () => setCopied(false));
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}

/** A button that asks once more inline before doing something that cannot be undone. */
export function ConfirmButton({ label, confirmLabel, onConfirm, disabled, name }: { label: string; confirmLabel: string; onConfirm: () => void; disabled?: boolean; name?: string }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="danger" onClick={() => setAsking(true)} disabled={disabled} aria-label={name}>
        {label}
      </button>
    );
  }
  return (
    <span className="actions" style={{ marginTop: 0 }}>
      <button
        type="button"
        className="danger"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
        autoFocus
      >
        {confirmLabel}
      </button>
      <button type="button" className="secondary" onClick={() => setAsking(false)}>
        Keep it
      </button>
    </span>
  );
}
