import { useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { Link, navigate } from '../../dashboard/router.tsx';
import { PageTitle } from '../../dashboard/ui.tsx';
import { useOperatorQuery } from '../queries.ts';
import { Field, OperatorError, type PageProps, Table } from '../shared.tsx';
import type { MerchantList } from '../types.ts';

/** The merchants, newest first, searched by id, name or e-mail. */
export function Merchants({ search }: PageProps) {
  const { t, dateTime } = useI18n();
  const initial = new URLSearchParams(search).get('q') ?? '';
  const [text, setText] = useState(initial);
  const list = useOperatorQuery<MerchantList>(['merchants', initial], `/merchants?${new URLSearchParams({ q: initial }).toString()}`);
  return (
    <>
      <PageTitle title={t('operator.merchantsTitle')}>{t('operator.merchantsTitle')}</PageTitle>
      <form
        role="search"
        className="form-row"
        onSubmit={(e) => {
          e.preventDefault();
          navigate(`/operator/merchants?${new URLSearchParams({ q: text.trim() }).toString()}`);
        }}
      >
        <Field label={t('operator.searchLabel')} hint={t('operator.searchHint')}>
          {(id) => <input id={id} type="search" value={text} onChange={(e) => setText(e.target.value)} />}
        </Field>
        <div className="actions">
          <button type="submit">{t('operator.search')}</button>
        </div>
      </form>
      <OperatorError error={list.error} />
      {list.loading && !list.data ? <p role="status">{t('dash.loading')}</p> : null}
      {list.data && list.data.data.length === 0 ? <p>{t('operator.noMerchants')}</p> : null}
      {list.data && list.data.data.length > 0 ? (
        <Table
          label={t('operator.merchantsTitle')}
          head={[t('operator.name'), t('operator.id'), t('login.email'), t('operator.country'), t('operator.state'), t('operator.created')]}
        >
          {list.data.data.map((m) => (
            <tr key={m.id}>
              <td>
                <Link to={`/operator/merchants/${encodeURIComponent(m.id)}`}>{m.name}</Link>
              </td>
              <td className="mono">{m.id}</td>
              <td>{m.email ?? '—'}</td>
              <td>{m.country}</td>
              <td>
                <span className={`badge ${m.frozen ? 'bad' : 'ok'}`}>{m.frozen ? t('operator.frozen') : t('operator.active')}</span>
              </td>
              <td>{dateTime(m.createdAt)}</td>
            </tr>
          ))}
        </Table>
      ) : null}
    </>
  );
}
