import { formatMoney } from '../../shared/format.ts';
import { api } from '../api.ts';
import type { Balance as BalanceView, Mode } from '../types.ts';
import { ErrorNotice, PageTitle, TableWrap, useLoad } from '../ui.tsx';

export function Balance({ mode }: { mode: Mode }) {
  const balance = useLoad(() => api<BalanceView>('GET', `/${mode}/balance`), mode);
  return (
    <>
      <PageTitle title="Balance">Balance</PageTitle>
      <p>What your {mode} payments brought in, less refunds, per currency.</p>
      <ErrorNotice error={balance.error} />
      {balance.data &&
        (balance.data.available.length === 0 ? (
          <div className="card">
            <p className="big-number">0</p>
            <p className="hint">No {mode} money yet: the balance grows as payments succeed.</p>
          </div>
        ) : (
          <TableWrap label="Balance per currency">
            <table>
              <thead>
                <tr>
                  <th scope="col">Currency</th>
                  <th scope="col" className="num">
                    Available
                  </th>
                </tr>
              </thead>
              <tbody>
                {balance.data.available.map((b) => (
                  <tr key={b.currency}>
                    <th scope="row">{b.currency}</th>
                    <td className="num big-number">{formatMoney(b.amount, b.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        ))}
    </>
  );
}
