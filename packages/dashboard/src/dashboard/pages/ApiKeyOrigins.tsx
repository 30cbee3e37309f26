import { type FormEvent, useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { useSetAllowedOrigins } from '../queries/apikeys.ts';
import type { ApiKey, Mode } from '../types.ts';
import { ErrorNotice } from '../ui.tsx';

/** The one refusal of this form: an origin not written scheme://host[:port], or too many. */
const ORIGIN_ERRORS = { validation_error: 'keys.originsInvalid' } as const;

/**
 * The websites a publishable key may be used from (CORS follows the list; none: any), and, for
 * a user who may change keys, a form to replace them, one origin per line.
 */
export function ApiKeyOrigins({ k, mode, editable }: { k: ApiKey; mode: Mode; editable: boolean }) {
  const { t, rich } = useI18n();
  const setOrigins = useSetAllowedOrigins(mode);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<unknown>(null);
  if (k.kind !== 'publishable') return null;

  async function save(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const allowedOrigins = text
        .split(/[\s,]+/)
        .map((o) => o.trim())
        .filter((o) => o !== '');
      await setOrigins.mutateAsync({ id: k.id, allowedOrigins });
      setOpen(false);
    } catch (err) {
      setError(err);
    }
  }

  const id = `origins-${k.id}`;
  return (
    <div className="hint">
      {t('keys.origins')}: {k.allowedOrigins.length > 0 ? <span className="mono">{k.allowedOrigins.join(', ')}</span> : t('keys.originsAny')}
      {editable && !open && (
        <div>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setText(k.allowedOrigins.join('\n'));
              setError(null);
              setOpen(true);
            }}
          >
            {rich('keys.originsEdit', { name: k.name, hidden: (chunks) => <span className="visually-hidden">{chunks}</span> })}
          </button>
        </div>
      )}
      {open && (
        <form onSubmit={save} className="card" style={{ margin: '0.5rem 0' }} aria-label={t('keys.originsEditName', { name: k.name })}>
          <ErrorNotice error={error} texts={ORIGIN_ERRORS} />
          <div className="field">
            <label htmlFor={id}>
              {t('keys.originsLabel')}
              <span className="hint">{t('keys.originsHint')}</span>
            </label>
            <textarea id={id} rows={3} value={text} spellCheck={false} onChange={(e) => setText(e.target.value)} placeholder="https://shop.example" />
          </div>
          <div className="actions">
            <button type="submit" disabled={setOrigins.isPending}>
              {t('keys.originsSave')}
            </button>
            <button type="button" className="secondary" onClick={() => setOpen(false)}>
              {t('dash.cancel')}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
