import type { RedirectPayment } from '../sandbox/redirect-payments.ts';

/**
 * The sandbox's CinetPay page (its "guichet"), in French and English: the payer picks an operator
 * and confirms with their number (fixed when the merchant locked it), or pays by card (a card
 * number whose last three digits decide the outcome, as a phone number's do), or declines,
 * cancels, or lets it expire. A plain HTML form posting back to the same path.
 */

/** The operators CinetPay's page offers, by its payment_method code, with our method name. */
export const PAGE_OPERATORS: readonly { code: string; method: string; label: string }[] = [
  { code: 'OM', method: 'orange_money', label: 'Orange Money' },
  { code: 'MOMO', method: 'mtn_momo', label: 'MTN Mobile Money' },
  { code: 'FLOOZ', method: 'moov_money', label: 'Moov Money (Flooz)' },
  { code: 'WAVE', method: 'wave', label: 'Wave' },
  { code: 'FREE', method: 'free_money', label: 'Free Money' },
  { code: 'TMONEY', method: 't_money', label: 'T-Money' },
];

const TEXT = {
  fr: {
    title: 'CinetPay — guichet de paiement (bac à sable)',
    amount: 'Montant',
    merchant: 'Marchand',
    mobile: 'Mobile money',
    operator: 'Opérateur',
    number: 'Votre numéro',
    card: 'Carte bancaire',
    cardNumber: 'Numéro de carte',
    cardHolder: 'Titulaire',
    pay: 'Payer',
    payCard: 'Payer par carte',
    decline: 'Refuser',
    cancel: 'Annuler',
    expire: 'Laisser expirer',
    expires: (at: string) => `Ce paiement expire à ${at} (UTC).`,
    sandbox: 'Bac à sable Caisse : aucun argent réel ne circule. Les trois derniers chiffres du numéro (ou de la carte) décident du résultat.',
    state: {
      INITIATED: 'En attente de votre paiement.',
      PENDING: 'Paiement en cours de traitement.',
      SUCCESSFUL: 'Paiement réussi.',
      FAILED: 'Paiement échoué.',
    },
    back: 'Retour au marchand',
    unknown: 'Ce paiement n’existe pas.',
    badNumber: 'Saisissez un numéro valide (chiffres, avec ou sans +).',
    badCard: 'Saisissez un numéro de carte valide (13 à 19 chiffres).',
    badCurrency: 'Aucun opérateur ne prend cette devise : payez par carte.',
    other: 'English',
  },
  en: {
    title: 'CinetPay — payment page (sandbox)',
    amount: 'Amount',
    merchant: 'Merchant',
    mobile: 'Mobile money',
    operator: 'Operator',
    number: 'Your number',
    card: 'Card',
    cardNumber: 'Card number',
    cardHolder: 'Card holder',
    pay: 'Pay',
    payCard: 'Pay by card',
    decline: 'Decline',
    cancel: 'Cancel',
    expire: 'Let it expire',
    expires: (at: string) => `This payment expires at ${at} (UTC).`,
    sandbox: 'Caisse sandbox: no real money moves. The last three digits of the number (or of the card) decide the outcome.',
    state: { INITIATED: 'Waiting for your payment.', PENDING: 'Payment being processed.', SUCCESSFUL: 'Payment successful.', FAILED: 'Payment failed.' },
    back: 'Back to the merchant',
    unknown: 'This payment does not exist.',
    badNumber: 'Enter a valid number (digits, with or without +).',
    badCard: 'Enter a valid card number (13 to 19 digits).',
    badCurrency: 'No operator takes this currency: pay by card.',
    other: 'Français',
  },
} as const;

export type CinetPayPageLanguage = keyof typeof TEXT;

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layout(lang: CinetPayPageLanguage, body: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(TEXT[lang].title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#222}fieldset{margin:1rem 0}button{display:block;width:100%;margin:.4rem 0;padding:.7rem;font-size:1rem}input,select{width:100%;padding:.6rem;font-size:1rem;box-sizing:border-box}.note{color:#666;font-size:.85rem}.error{color:#b00020}</style></head><body><h1>${escape(TEXT[lang].title)}</h1>${body}</body></html>`;
}

/** What the page shows of a payment: the universes it was opened for (CinetPay's `channels`). */
export interface PageView {
  mobile: boolean;
  card: boolean;
  merchant: string;
}

/** The page of one payment; `error` says what was wrong with the last form. */
export function cinetPayPage<E>(
  payment: RedirectPayment<E> | undefined,
  view: PageView | undefined,
  lang: CinetPayPageLanguage,
  opts: { path: string; error?: 'number' | 'card' | 'currency' },
): string {
  const t = TEXT[lang];
  if (payment === undefined || view === undefined) return layout(lang, `<p>${t.unknown}</p>`);
  const other: CinetPayPageLanguage = lang === 'fr' ? 'en' : 'fr';
  const head = `<p>${t.merchant}: <strong data-merchant>${escape(view.merchant)}</strong></p><p>${t.amount}: <strong>${escape(payment.amount)} ${escape(payment.currency)}</strong></p><p><a href="${escape(opts.path)}?lang=${other}">${t.other}</a></p>`;
  if (payment.state !== 'INITIATED') {
    const back = payment.state === 'FAILED' ? payment.failureUrl : payment.successUrl;
    return layout(lang, `${head}<p role="status">${t.state[payment.state]}</p><p><a href="${escape(back)}">${t.back}</a></p>`);
  }
  const error =
    opts.error === 'number'
      ? `<p class="error" role="alert">${t.badNumber}</p>`
      : opts.error === 'card'
        ? `<p class="error" role="alert">${t.badCard}</p>`
        : opts.error === 'currency'
          ? `<p class="error" role="alert">${t.badCurrency}</p>`
          : '';
  const locked = payment.phoneNumber !== undefined ? ' readonly' : '';
  const options = PAGE_OPERATORS.map((o) => `<option value="${o.code}">${escape(o.label)}</option>`).join('');
  const mobile = view.mobile
    ? `<fieldset><legend>${t.mobile}</legend><label>${t.operator}<select name="operator">${options}</select></label>
<label>${t.number}<input name="phoneNumber" inputmode="tel" value="${escape(payment.phoneNumber ?? '')}"${locked}></label>
<button name="action" value="approve">${t.pay}</button></fieldset>`
    : '';
  const card = view.card
    ? `<fieldset><legend>${t.card}</legend><label>${t.cardHolder}<input name="cardHolder" autocomplete="cc-name"></label>
<label>${t.cardNumber}<input name="cardNumber" inputmode="numeric" autocomplete="cc-number"></label>
<button name="channel" value="card">${t.payCard}</button></fieldset>`
    : '';
  const expiresAt = new Date(payment.expiresAt).toISOString().slice(11, 19);
  const form = `<form method="post" action="${escape(opts.path)}"><input type="hidden" name="lang" value="${lang}">${error}${mobile}${card}
<button name="action" value="decline">${t.decline}</button><button name="action" value="cancel">${t.cancel}</button><button name="action" value="expire">${t.expire}</button></form>`;
  return layout(lang, `${head}<p role="status">${t.state.INITIATED}</p>${form}<p>${t.expires(expiresAt)}</p><p class="note">${t.sandbox}</p>`);
}
