import { useI18n } from '../../shared/i18n.tsx';
import { PageTitle } from '../../dashboard/ui.tsx';
import { useOperatorQuery } from '../queries.ts';
import { Loading, OperatorError, Table, useModeText } from '../shared.tsx';
import type { ProviderList } from '../types.ts';

/**
 * Each provider in each mode: what it serves, whether this server has it set up, with which
 * provider account, and that account's health as this process has seen it. The API answers no
 * setting, so none can be shown.
 */
export function Providers() {
  const { t } = useI18n();
  const modeText = useModeText();
  const loaded = useOperatorQuery<ProviderList>(['providers'], '/providers');
  return (
    <>
      <PageTitle title={t('operator.providersTitle')}>{t('operator.providersTitle')}</PageTitle>
      <p>{t('operator.providersIntro')}</p>
      <OperatorError error={loaded.error} />
      <Loading shown={loaded.loading && !loaded.data} />
      {loaded.data ? (
        <Table
          label={t('operator.providersTitle')}
          head={[
            t('operator.provider'),
            t('operator.mode'),
            t('operator.countriesCurrencies'),
            t('operator.capabilities'),
            t('operator.configured'),
            t('operator.health'),
            t('operator.outcomes'),
          ]}
        >
          {loaded.data.data.map((p) => (
            <tr key={`${p.provider}-${p.mode}`}>
              <th scope="row">
                {p.name} <span className="mono hint">{p.provider}</span>
              </th>
              <td>{modeText(p.mode)}</td>
              <td>
                {p.countries.join(', ')} · {p.currencies.join(', ')}
              </td>
              <td>{p.capabilities.map((capability) => t('operator.capabilityName', { capability })).join(', ')}</td>
              <td>
                <span className={`badge ${p.configured ? 'ok' : ''}`}>{p.configured ? t('operator.yes') : t('operator.notConfigured')}</span>
                {p.providerAccount !== null ? <span className="mono hint"> {p.providerAccount}</span> : null}
              </td>
              <td>
                {/* A provider this server does not have set up in this mode has no health to show. */}
                {p.configured ? (
                  <span className={`badge ${p.health.available ? 'ok' : 'bad'}`}>
                    {p.health.available ? t('operator.available') : t('operator.unavailable')}
                  </span>
                ) : (
                  '—'
                )}
              </td>
              <td>
                {Object.entries(p.health.outcomes)
                  .filter(([, n]) => n > 0)
                  .map(([outcome, count]) => t('operator.outcomeName', { outcome, count }))
                  .join(', ') || t('operator.noOutcomes')}
              </td>
            </tr>
          ))}
        </Table>
      ) : null}
    </>
  );
}
