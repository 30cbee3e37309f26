import { type FormEvent, useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { useSearch } from '../queries/payments.ts';
import { navigate } from '../router.tsx';
import type { Mode } from '../types.ts';
import { ErrorNotice, PageTitle } from '../ui.tsx';
import { PaymentsTable } from './Payments.tsx';

/** The header's search box: goes to the results page of what was typed. */
export function SearchBox({ mode, initial }: { mode: Mode; initial: string }) {
  const { t } = useI18n();
  const [text, setText] = useState(initial);
  function submit(e: FormEvent) {
    e.preventDefault();
    const q = text.trim();
    if (q) navigate(`/dashboard/${mode}/search?${new URLSearchParams({ q })}`);
  }
  return (
    <form role="search" className="search-box" onSubmit={submit}>
      <label htmlFor="dash-search" className="visually-hidden">
        {t('search.label')}
      </label>
      <input id="dash-search" type="search" value={text} maxLength={100} placeholder={t('search.placeholder')} onChange={(e) => setText(e.target.value)} />
      <button type="submit" className="secondary">
        {t('search.submit')}
      </button>
    </form>
  );
}

/** `/dashboard/{mode}/search?q=…`: payments by id, metadata value (an order reference) or amount. */
export function Search({ mode, search }: { mode: Mode; search: string }) {
  const { t, rich } = useI18n();
  const q = new URLSearchParams(search).get('q')?.trim() ?? '';
  const found = useSearch(mode, q);
  return (
    <>
      <PageTitle title={t('search.title')}>{t('search.title')}</PageTitle>
      <p className="hint">{t('search.intro')}</p>
      <ErrorNotice error={found.error} />
      {found.isLoading ? (
        <p role="status">{t('dash.loading')}</p>
      ) : (
        found.data && (
          <>
            <PaymentsTable mode={mode} rows={found.data.data} caption={t('search.caption', { q })} empty={rich('search.empty', { q })} />
            {found.data.hasMore && <p className="hint">{t('search.more')}</p>}
          </>
        )
      )}
    </>
  );
}
