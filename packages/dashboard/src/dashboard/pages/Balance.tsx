import { useI18n } from '../../shared/i18n.tsx';
import { api } from '../api.ts';
import type { Balance as BalanceView, Mode } from '../types.ts';
import { ErrorNotice, PageTitle, TableWrap, useLoad } from '../ui.tsx';

export function Balance({ mode }: { mode: Mode }) {
  const { t, money } = useI18n();
  const balance = useLoad(() => api<BalanceView>('GET', `/${mode}/balance`), mode);
  return (
    <>
      <PageTitle title={t('balance.title')}>{t('balance.title')}</PageTitle>
      <p>{t('balance.intro', { mode })}</p>
      <ErrorNotice error={balance.error} />
      {balance.data &&
        (balance.data.available.length === 0 ? (
          <div className="card">
            <p className="big-number">0</p>
            <p className="hint">{t('balance.empty', { mode })}</p>
          </div>
        ) : (
          <TableWrap label={t('balance.tableLabel')}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('balance.currency')}</th>
                  <th scope="col" className="num">
                    {t('balance.available')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {balance.data.available.map((b) => (
                  <tr key={b.currency}>
                    <th scope="row">{b.currency}</th>
                    <td className="num big-number">{money(b.amount, b.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        ))}
    </>
  );
}
