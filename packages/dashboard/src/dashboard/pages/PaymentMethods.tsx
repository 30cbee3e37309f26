import { type FormEvent, useEffect, useState } from 'react';
import { type MessageId, useI18n } from '../../shared/i18n.tsx';
import { useCan } from '../permissions.tsx';
import { useCountry, usePaymentMethods, useSaveCountry, useSavePaymentMethods } from '../queries/settings.ts';
import type { Country, CountrySettings, Mode, PaymentMethodSettings } from '../types.ts';
import { COUNTRIES } from '../types.ts';
import { Badge, ErrorNotice, PageTitle, StatusNotice, TableWrap } from '../ui.tsx';

/** Countries by name in the page's language. */
const COUNTRY_NAMES = {
  CM: 'country.CM',
  SN: 'country.SN',
  CI: 'country.CI',
  BJ: 'country.BJ',
  BF: 'country.BF',
  ML: 'country.ML',
  TG: 'country.TG',
} as const satisfies Record<Country, MessageId>;

/**
 * Settings → Payment methods: the merchant's country (both modes: it picks the currency and the
 * providers that serve it) and what this mode's checkout offers: the wallet, card where a card
 * route serves the country, and the providers, either the default (every configured provider
 * serving the country) or exactly the ones ticked (card among them, decision 0096).
 */
export function PaymentMethods({ mode }: { mode: Mode }) {
  const { t } = useI18n();
  const can = useCan();
  const editable = can('settings:write');
  const country = useCountry();
  const settings = usePaymentMethods(mode);
  const saveCountry = useSaveCountry();
  const saveMethods = useSavePaymentMethods(mode);
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function run(action: () => Promise<unknown>, done: string) {
    setError(null);
    setSaved(null);
    try {
      await action();
      setSaved(done);
    } catch (err) {
      setError(err);
    }
  }

  return (
    <>
      <PageTitle title={t('methods.title')}>{t('methods.title')}</PageTitle>
      <p className="hint">{t('methods.intro')}</p>
      <ErrorNotice error={error ?? country.error ?? settings.error} />
      {saved && <StatusNotice>{saved}</StatusNotice>}
      {country.data && (
        <CountryForm
          key={country.data.country}
          current={country.data}
          editable={editable}
          onSave={(c) => run(() => saveCountry.mutateAsync(c), t('methods.countrySaved'))}
        />
      )}
      {settings.data && (
        <MethodsForm
          key={JSON.stringify(settings.data)}
          mode={mode}
          settings={settings.data}
          editable={editable}
          onSave={(body) => run(() => saveMethods.mutateAsync(body), t('methods.saved'))}
        />
      )}
    </>
  );
}

function CountryForm({ current, editable, onSave }: { current: CountrySettings; editable: boolean; onSave: (country: Country) => void }) {
  const { t } = useI18n();
  const [value, setValue] = useState<Country>(current.country);
  useEffect(() => setValue(current.country), [current.country]);
  function submit(e: FormEvent) {
    e.preventDefault();
    onSave(value);
  }
  return (
    <form className="card" onSubmit={submit} aria-labelledby="country-title">
      <h2 id="country-title" style={{ marginTop: 0 }}>
        {t('methods.countryTitle')}
      </h2>
      <p className="hint">{t('methods.countryHint', { currency: current.currency })}</p>
      <div className="form-row">
        <div className="field">
          <label htmlFor="merchant-country">{t('methods.country')}</label>
          <select id="merchant-country" value={value} disabled={!editable} onChange={(e) => setValue(e.target.value as Country)}>
            {COUNTRIES.map((c) => (
              <option key={c} value={c}>
                {t(COUNTRY_NAMES[c])}
              </option>
            ))}
          </select>
        </div>
        {editable && (
          <div className="actions" style={{ marginTop: 0 }}>
            <button type="submit" disabled={value === current.country}>
              {t('methods.saveCountry')}
            </button>
          </div>
        )}
      </div>
    </form>
  );
}

function MethodsForm({
  mode,
  settings,
  editable,
  onSave,
}: {
  mode: Mode;
  settings: PaymentMethodSettings;
  editable: boolean;
  onSave: (body: { wallet: boolean; providers: string[] | null; order: string[] | null }) => void;
}) {
  const { t } = useI18n();
  const [wallet, setWallet] = useState(settings.wallet);
  // What the platform does not allow is never part of the merchant's choice (the API refuses it).
  const [chosen, setChosen] = useState<string[]>(settings.providers.filter((p) => p.enabled && p.allowed).map((p) => p.provider));
  const [useDefault, setUseDefault] = useState(settings.providersDefault);
  // The order checkout lists them in (its first is preselected): the country's default until moved.
  const [order, setOrder] = useState<string[]>(settings.order);
  const [orderDefault, setOrderDefault] = useState(settings.orderDefault);
  // Card is a choice of its own in checkout, after mobile money: a toggle, outside the providers' order.
  const card = settings.providers.find((p) => p.provider === 'card');
  const rows = settings.providers.filter((p) => p !== card).sort((a, b) => order.indexOf(a.provider) - order.indexOf(b.provider));

  function move(provider: string, by: -1 | 1) {
    const visible: string[] = rows.map((p) => p.provider);
    const i = visible.indexOf(provider);
    const j = i + by;
    if (i < 0 || j < 0 || j >= visible.length) return;
    [visible[i], visible[j]] = [visible[j] as string, visible[i] as string];
    setOrder(visible);
    setOrderDefault(false);
  }

  function toggle(provider: string, on: boolean) {
    setUseDefault(false);
    setChosen((list) => (on ? [...new Set([...list, provider])] : list.filter((p) => p !== provider)));
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    onSave({ wallet, providers: useDefault ? null : chosen, order: orderDefault ? null : order });
  }

  return (
    <form className="card" onSubmit={submit} aria-labelledby="methods-title">
      <h2 id="methods-title" style={{ marginTop: 0 }}>
        {mode === 'test' ? t('methods.offeredTest') : t('methods.offeredLive')}
      </h2>
      <div className="field">
        <label>
          <input
            type="checkbox"
            checked={wallet && settings.walletAllowed}
            disabled={!editable || !settings.walletAllowed}
            onChange={(e) => setWallet(e.target.checked)}
          />{' '}
          {t('methods.wallet')}
        </label>
        {!settings.walletAllowed && <p className="hint">{t('methods.notAllowed')}</p>}
      </div>
      {card && (
        <div className="field">
          <label>
            <input
              type="checkbox"
              checked={card.allowed && (useDefault || chosen.includes(card.provider))}
              disabled={!editable || !card.allowed}
              onChange={(e) => toggle(card.provider, e.target.checked)}
            />{' '}
            {t('methods.card', { brands: card.name })}
          </label>{' '}
          <MethodState method={card} />
          <p className="hint">{t('methods.cardHint')}</p>
        </div>
      )}
      <TableWrap label={t('methods.providers')}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('methods.provider')}</th>
              <th scope="col">{t('methods.approval')}</th>
              <th scope="col">{t('methods.state')}</th>
              {editable && <th scope="col">{t('methods.order')}</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((p, index) => {
              const enabled = p.allowed && (useDefault || chosen.includes(p.provider));
              return (
                <tr key={p.provider}>
                  <td>
                    <label>
                      <input type="checkbox" checked={enabled} disabled={!editable || !p.allowed} onChange={(e) => toggle(p.provider, e.target.checked)} />{' '}
                      {p.name}
                    </label>
                  </td>
                  <td>
                    {p.approval === 'redirect'
                      ? t('methods.redirect')
                      : p.approval === 'pre_authorisation_code'
                        ? t('methods.preAuthorisationCode')
                        : t('methods.phonePrompt')}
                  </td>
                  <td>
                    <MethodState method={p} />
                  </td>
                  {editable && (
                    <td>
                      <button
                        type="button"
                        className="secondary"
                        disabled={index === 0}
                        aria-label={t('methods.moveUp', { name: p.name })}
                        onClick={() => move(p.provider, -1)}
                      >
                        ↑
                      </button>{' '}
                      <button
                        type="button"
                        className="secondary"
                        disabled={index === rows.length - 1}
                        aria-label={t('methods.moveDown', { name: p.name })}
                        onClick={() => move(p.provider, 1)}
                      >
                        ↓
                      </button>
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableWrap>
      <p className="hint">{settings.providersDefault ? t('methods.isDefault') : t('methods.isChosen')}</p>
      <p className="hint">{orderDefault ? t('methods.orderDefault') : t('methods.orderChosen')}</p>
      {editable && (
        <div className="actions">
          <button type="submit">{t('methods.save')}</button>
          {(!useDefault || !orderDefault) && (
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setUseDefault(true);
                setOrderDefault(true);
              }}
            >
              {t('methods.backToDefault')}
            </button>
          )}
        </div>
      )}
    </form>
  );
}

/** Whether checkout offers a method, and why not when it does not. */
function MethodState({ method: p }: { method: PaymentMethodSettings['providers'][number] }) {
  const { t } = useI18n();
  if (p.offered) return p.available ? <Badge value="enabled" label={t('methods.offered')} /> : <Badge value="disabled" label={t('methods.unavailable')} />;
  const why = !p.allowed
    ? t('methods.notAllowed')
    : !p.servesCountry
      ? t('methods.notInCountry')
      : !p.configured
        ? t('methods.notConfigured')
        : t('methods.notChosen');
  return <Badge value="disabled" label={why} />;
}
