import { type FormEvent, useId, useState } from 'react';
import { useI18n } from '../../shared/i18n.tsx';
import { api } from '../../dashboard/api.ts';
import { useSubmit } from '../../dashboard/pages/Login.tsx';
import { StatusNotice } from '../../dashboard/ui.tsx';
import { useOperatorQuery } from '../queries.ts';
import { Field, OperatorError } from '../shared.tsx';
import type { MerchantMethodChoices, OperatorMerchant } from '../types.ts';

/** XAF and XOF have no minor unit: the fixed part typed is the amount in minor units. */
const COUNTRY_CURRENCY: Record<string, string> = { CM: 'XAF', SN: 'XOF', CI: 'XOF', BJ: 'XOF', BF: 'XOF', ML: 'XOF', TG: 'XOF' };

/** "1.5" → 150 basis points; undefined when it is not a percentage with at most 2 decimals. */
function basisPoints(text: string): number | undefined {
  const v = text.trim().replace(',', '.');
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(v)) return undefined;
  const bps = Math.round(Number(v) * 100);
  return bps <= 10_000 ? bps : undefined;
}

/** Fees, settlement delay and rolling reserve (`merchants:terms`); an empty field means the default. */
export function MerchantTerms({ merchant, onChanged }: { merchant: OperatorMerchant; onChanged: (m: OperatorMerchant) => void }) {
  const { t } = useI18n();
  const currency = COUNTRY_CURRENCY[merchant.country] ?? 'XAF';
  const [percent, setPercent] = useState(merchant.fees.bps === null ? '' : String(merchant.fees.bps / 100));
  const [fixed, setFixed] = useState(String(merchant.fees.fixedMinor?.[currency] ?? ''));
  const [delay, setDelay] = useState(merchant.settlementDelayDays === null ? '' : String(merchant.settlementDelayDays));
  const [reservePercent, setReservePercent] = useState(merchant.reserve ? String(merchant.reserve.bps / 100) : '');
  const [reserveDays, setReserveDays] = useState(merchant.reserve ? String(merchant.reserve.days) : '');
  const [reason, setReason] = useState('');
  const [done, setDone] = useState(false);
  const [invalid, setInvalid] = useState<string | null>(null);
  const { busy, error, run } = useSubmit();

  function submit(e: FormEvent) {
    e.preventDefault();
    setDone(false);
    const bps = percent.trim() === '' ? null : basisPoints(percent);
    const reserveBps = reservePercent.trim() === '' ? null : basisPoints(reservePercent);
    if (bps === undefined || reserveBps === undefined || !/^\d*$/.test(fixed.trim()) || !/^\d*$/.test(delay.trim()) || !/^\d*$/.test(reserveDays.trim())) {
      setInvalid(t('operator.terms.invalid'));
      return;
    }
    setInvalid(null);
    const body = {
      fees: bps === null ? null : { bps, fixedMinor: fixed.trim() === '' ? {} : { [currency]: fixed.trim() } },
      settlementDelayDays: delay.trim() === '' ? null : Number(delay),
      reserve: reserveBps === null ? null : { bps: reserveBps, days: Number(reserveDays || '0') },
      reason: reason.trim(),
    };
    void run(async () => {
      onChanged(await api<OperatorMerchant>('PUT', `/merchants/${encodeURIComponent(merchant.id)}/terms`, body));
      setReason('');
      setDone(true);
    });
  }

  return (
    <section aria-labelledby="terms-title">
      <h2 id="terms-title">{t('operator.terms.title')}</h2>
      <p>{t('operator.terms.intro')}</p>
      {done ? <StatusNotice>{t('operator.terms.saved')}</StatusNotice> : null}
      {invalid ? (
        <div className="notice error" role="alert">
          {invalid}
        </div>
      ) : null}
      <OperatorError error={error} />
      <form onSubmit={submit}>
        <Field label={t('operator.terms.percent')} hint={t('operator.terms.emptyDefault')}>
          {(id) => <input id={id} inputMode="decimal" value={percent} onChange={(e) => setPercent(e.target.value)} />}
        </Field>
        <Field label={t('operator.terms.fixed', { currency })}>
          {(id) => <input id={id} inputMode="numeric" value={fixed} onChange={(e) => setFixed(e.target.value)} />}
        </Field>
        <Field label={t('operator.terms.delay')} hint={t('operator.terms.emptyDefault')}>
          {(id) => <input id={id} inputMode="numeric" value={delay} onChange={(e) => setDelay(e.target.value)} />}
        </Field>
        <Field label={t('operator.terms.reservePercent')} hint={t('operator.terms.emptyNoReserve')}>
          {(id) => <input id={id} inputMode="decimal" value={reservePercent} onChange={(e) => setReservePercent(e.target.value)} />}
        </Field>
        <Field label={t('operator.terms.reserveDays')}>
          {(id) => <input id={id} inputMode="numeric" value={reserveDays} onChange={(e) => setReserveDays(e.target.value)} />}
        </Field>
        <Field label={t('operator.terms.reason')}>
          {(id) => <textarea id={id} required maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />}
        </Field>
        <button type="submit" disabled={busy}>
          {t('operator.terms.save')}
        </button>
      </form>
    </section>
  );
}

/**
 * The payment methods the merchant may offer in a mode (`merchants:methods`): the boxes are the
 * methods the server lists for the merchant's country (and any the cap names), never a connector:
 * an aggregator reaches methods, a cap never names it.
 */
export function MerchantMethods({ merchant, onChanged }: { merchant: OperatorMerchant; onChanged: (m: OperatorMerchant) => void }) {
  const { t } = useI18n();
  const choices = useOperatorQuery<MerchantMethodChoices>(
    ['merchant-method-choices', merchant.id],
    `/merchants/${encodeURIComponent(merchant.id)}/methods/choices`,
  );
  const [mode, setMode] = useState<'test' | 'live'>('live');
  const cap = merchant.methods[mode];
  const [wallet, setWallet] = useState<boolean | null>(null);
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [reason, setReason] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, run } = useSubmit();
  const hintPrefix = useId();
  const listed = choices.data?.[mode] ?? [];
  const walletNow = wallet ?? cap.wallet;
  const all = listed.map((c) => c.method as string);
  const chosenNow = chosen ?? cap.providers ?? all;

  function switchMode(next: 'test' | 'live') {
    setMode(next);
    setWallet(null);
    setChosen(null);
    setDone(false);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    setDone(false);
    // The list holds every method the cap names: all ticked is no cap (null), methods added later included.
    const every = all.every((p) => chosenNow.includes(p));
    void run(async () => {
      onChanged(
        await api<OperatorMerchant>('PUT', `/merchants/${encodeURIComponent(merchant.id)}/methods`, {
          mode,
          wallet: walletNow,
          providers: every ? null : chosenNow,
          reason: reason.trim(),
        }),
      );
      setWallet(null);
      setChosen(null);
      setReason('');
      setDone(true);
      // A method listed only because the cap named it goes once unticked.
      choices.reload();
    });
  }

  return (
    <section aria-labelledby="methods-cap-title">
      <h2 id="methods-cap-title">{t('operator.methods.title')}</h2>
      <p>{t('operator.methods.intro')}</p>
      {done ? <StatusNotice>{t('operator.methods.saved')}</StatusNotice> : null}
      <OperatorError error={error ?? choices.error} />
      <form onSubmit={submit}>
        <Field label={t('operator.mode')}>
          {(id) => (
            <select id={id} value={mode} onChange={(e) => switchMode(e.target.value as 'test' | 'live')}>
              <option value="live">{t('dash.liveMode')}</option>
              <option value="test">{t('dash.testMode')}</option>
            </select>
          )}
        </Field>
        <fieldset>
          <legend>{t('operator.methods.allowed')}</legend>
          <label>
            <input type="checkbox" checked={walletNow} onChange={(e) => setWallet(e.target.checked)} /> {t('operator.methods.wallet')}
          </label>
          {listed.map((c) => {
            const hints = [c.servesCountry ? null : t('operator.methods.elsewhere'), c.configured ? null : t('operator.methods.unconfigured')].filter(
              (h) => h !== null,
            );
            // The hint describes the box rather than naming it: its name stays the brand.
            const hintId = `${hintPrefix}-${c.method}`;
            return (
              <div key={c.method}>
                <label>
                  <input
                    type="checkbox"
                    checked={chosenNow.includes(c.method)}
                    aria-describedby={hints.length > 0 ? hintId : undefined}
                    onChange={(e) => setChosen(e.target.checked ? [...new Set([...chosenNow, c.method])] : chosenNow.filter((p) => p !== c.method))}
                  />{' '}
                  {c.method === 'card' ? t('operator.methods.card') : c.name}
                </label>
                {hints.length > 0 ? (
                  <span id={hintId} className="hint">
                    {hints.join(' · ')}
                  </span>
                ) : null}
              </div>
            );
          })}
        </fieldset>
        <Field label={t('operator.methods.reason')}>
          {(id) => <textarea id={id} required maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />}
        </Field>
        <button type="submit" disabled={busy || choices.data === undefined}>
          {t('operator.methods.save')}
        </button>
      </form>
    </section>
  );
}
