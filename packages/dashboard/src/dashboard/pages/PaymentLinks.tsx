import { type FormEvent, useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { Link } from '../router.tsx';
import { CURRENCIES, type Mode, type PaymentLink } from '../types.ts';
import { PagedTable } from '../paging.tsx';
import { useCreatePaymentLink, usePaymentLink, usePaymentLinks, useSetPaymentLinkActive } from '../queries/links.ts';
import { useCountry } from '../queries/settings.ts';
import { Badge, ErrorNotice, PageTitle, SecretField, StatusNotice } from '../ui.tsx';
import { PaymentsTable } from './Payments.tsx';

function LinkStatus({ link }: { link: PaymentLink }) {
  const { t } = useI18n();
  return <Badge value={link.active ? 'enabled' : 'disabled'} label={link.active ? t('links.active') : t('links.inactive')} />;
}

/** Payment links: the form that creates one, then the merchant's links with a copy button each. */
export function PaymentLinks({ mode }: { mode: Mode }) {
  const { t, money, dateTime } = useI18n();
  const links = usePaymentLinks(mode, 'limit=20');
  const createLink = useCreatePaymentLink(mode);
  const [amount, setAmount] = useState('');
  const [chosenCurrency, setCurrency] = useState('XAF');
  // The currencies this mode's intents may be in: the merchant's country's (XAF in CM, XOF in West
  // Africa) and those a route there takes (a card route's). Until the country is read, or for a
  // member who may not read it, every currency: the server refuses the others (currency_unsupported).
  const country = useCountry();
  const accepted: readonly string[] = country.data ? country.data.currencies[mode] : CURRENCIES;
  const currency = accepted.includes(chosenCurrency) ? chosenCurrency : (accepted[0] as string);
  const [description, setDescription] = useState('');
  const [created, setCreated] = useState<PaymentLink | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [copied, setCopied] = useState<string | null>(null);

  async function create(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      setCreated(await createLink.mutateAsync({ amount: amount.trim(), currency, description }));
      setAmount('');
      setDescription('');
    } catch (err) {
      setError(err);
    }
  }

  function copy(link: PaymentLink) {
    void navigator.clipboard?.writeText(link.url).then(
      () => setCopied(link.id),
      () => setCopied(null),
    );
  }

  return (
    <>
      <PageTitle title={t('links.title')}>{t('links.title')}</PageTitle>
      <p>{t('links.intro')}</p>
      {created && (
        <section className="notice success" aria-labelledby="link-created">
          <h2 id="link-created" style={{ marginTop: 0 }}>
            {t('links.created')}
          </h2>
          <SecretField label={t('links.url')} value={created.url} hint={t('links.urlHint')} />
          <div className="actions">
            <Link className="button secondary" to={`/dashboard/${mode}/payment-links/${created.id}`}>
              {t('links.open')}
            </Link>
            <button type="button" className="secondary" onClick={() => setCreated(null)}>
              {t('links.done')}
            </button>
          </div>
        </section>
      )}
      <form className="card" onSubmit={create} aria-labelledby="link-new">
        <h2 id="link-new" style={{ marginTop: 0 }}>
          {t('links.createTitle')}
        </h2>
        <ErrorNotice error={error} />
        <div className="form-row">
          <div className="field">
            <label htmlFor="link-amount">
              {t('links.amount')}
              <span className="hint">{t('links.amountHint')}</span>
            </label>
            <input id="link-amount" required inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} placeholder="5000" />
          </div>
          <div className="field">
            <label htmlFor="link-currency">{t('links.currency')}</label>
            <select id="link-currency" value={currency} onChange={(e) => setCurrency(e.target.value)}>
              {accepted.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="field">
          <label htmlFor="link-description">
            {t('links.description')}
            <span className="hint">{t('links.descriptionHint')}</span>
          </label>
          <input id="link-description" required maxLength={1000} value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        <div className="actions">
          <button type="submit">{t('links.create')}</button>
        </div>
      </form>
      {copied && <StatusNotice>{t('links.copied')}</StatusNotice>}
      <PagedTable
        pages={links}
        label={t('links.title')}
        caption={t('links.caption')}
        columns={[
          { label: t('links.description') },
          { label: t('links.amount'), num: true },
          { label: t('links.status') },
          { label: t('links.createdAt') },
          { label: t('links.share') },
        ]}
        text={{ loading: t('links.loading'), empty: t('links.empty'), loadMore: t('dash.loadMore') }}
        row={(link) => (
          <tr key={link.id}>
            <td>
              <Link to={`/dashboard/${mode}/payment-links/${link.id}`}>{link.description}</Link>
            </td>
            <td className="num">{money(link.amount, link.currency)}</td>
            <td>
              <LinkStatus link={link} />
            </td>
            <td>{dateTime(link.createdAt)}</td>
            <td>
              <button type="button" className="secondary" onClick={() => copy(link)} aria-label={t('links.copyFor', { description: link.description })}>
                {copied === link.id ? t('dash.copied') : t('links.copy')}
              </button>
            </td>
          </tr>
        )}
      />
    </>
  );
}

/** One link: its URL to copy, its status (with the switch), and the payments its visits created. */
export function PaymentLinkDetail({ mode, id }: { mode: Mode; id: string }) {
  const { t, money, dateTime } = useI18n();
  const detail = usePaymentLink(mode, id);
  const setLinkActive = useSetPaymentLinkActive(mode);
  const [error, setError] = useState<unknown>(null);

  async function setActive(active: boolean) {
    setError(null);
    try {
      await setLinkActive.mutateAsync({ id, active });
    } catch (err) {
      setError(err);
    }
  }

  const link = detail.data?.link;
  return (
    <>
      <PageTitle title={link ? link.description : t('links.title')}>{link ? link.description : t('links.title')}</PageTitle>
      <p>
        <Link to={`/dashboard/${mode}/payment-links`}>{t('links.back')}</Link>
      </p>
      <ErrorNotice error={detail.error} />
      <ErrorNotice error={error} />
      {detail.isPending && <p role="status">{t('links.loading')}</p>}
      {link && detail.data && (
        <>
          <section className="card" aria-labelledby="link-summary">
            <h2 id="link-summary" style={{ marginTop: 0 }}>
              {money(link.amount, link.currency)} <LinkStatus link={link} />
            </h2>
            <SecretField label={t('links.url')} value={link.url} hint={link.active ? t('links.urlHint') : t('links.inactiveHint')} />
            <dl className="summary">
              <dt>{t('links.id')}</dt>
              <dd className="mono">{link.id}</dd>
              <dt>{t('links.createdAt')}</dt>
              <dd>{dateTime(link.createdAt)}</dd>
            </dl>
            <div className="actions">
              {link.active ? (
                <button type="button" className="danger" onClick={() => void setActive(false)}>
                  {t('links.deactivate')}
                </button>
              ) : (
                <button type="button" onClick={() => void setActive(true)}>
                  {t('links.activate')}
                </button>
              )}
            </div>
          </section>
          <h2>{t('links.payments')}</h2>
          <PaymentsTable mode={mode} rows={detail.data.payments.data} caption={t('links.paymentsCaption')} empty={t('links.noPayments')} />
        </>
      )}
    </>
  );
}
