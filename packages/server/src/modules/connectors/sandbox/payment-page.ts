import type { IncomingMessage } from 'node:http';
import type { RedirectPayment, RedirectPayments } from './redirect-payments.ts';
import { formFields, readRequestBody, SandboxAnswer } from './sandbox.http.ts';

/**
 * The sandbox's payment page for a redirect provider, in French and English: the payer's number
 * (fixed when the provider was given it), and approve, decline, cancel, or let it expire. A plain
 * HTML form that POSTs back to the same path, so tests drive it with one HTTP request.
 */

const TEXT = {
  fr: {
    title: (provider: string) => `${provider} — paiement (bac à sable)`,
    amount: 'Montant',
    merchant: 'Marchand',
    number: 'Votre numéro',
    approve: 'Approuver le paiement',
    decline: 'Refuser',
    cancel: 'Annuler',
    expire: 'Laisser expirer',
    expires: (at: string) => `Cette demande expire à ${at} (UTC).`,
    sandbox: 'Bac à sable Caisse : aucun argent réel ne circule. Les trois derniers chiffres du numéro décident du résultat.',
    state: {
      INITIATED: 'En attente de votre approbation.',
      PENDING: 'Paiement approuvé, en cours de traitement.',
      SUCCESSFUL: 'Paiement réussi.',
      FAILED: 'Paiement échoué.',
    },
    back: 'Retour au marchand',
    unknown: 'Ce paiement n’existe pas.',
    badNumber: 'Saisissez un numéro valide (chiffres, avec ou sans +).',
    lastError: (reason: string) => `Le dernier essai a échoué (${reason}) : vous pouvez payer encore tant que la demande n’a pas expiré.`,
    other: 'English',
    testUnit: (unit: string) => `${unit} : l’unité de l’environnement de test du fournisseur, à la place du XAF ou du XOF ; ce n’est pas de l’argent réel.`,
    numbers:
      'Fin du numéro : 101 réussi après 10 s, 102 jamais de réponse, 103 payeur inconnu, 104 solde insuffisant, 105 refusé, 106 expiré, 107 erreur 500 puis réussi, 108 pas de réponse puis réussi, 109 notification envoyée deux fois ; tout autre numéro : réussi après 1 s.',
  },
  en: {
    title: (provider: string) => `${provider} — payment (sandbox)`,
    amount: 'Amount',
    merchant: 'Merchant',
    number: 'Your number',
    approve: 'Approve the payment',
    decline: 'Decline',
    cancel: 'Cancel',
    expire: 'Let it expire',
    expires: (at: string) => `This request expires at ${at} (UTC).`,
    sandbox: 'Caisse sandbox: no real money moves. The number’s last three digits decide the outcome.',
    state: {
      INITIATED: 'Waiting for your approval.',
      PENDING: 'Payment approved, being processed.',
      SUCCESSFUL: 'Payment successful.',
      FAILED: 'Payment failed.',
    },
    back: 'Back to the merchant',
    unknown: 'This payment does not exist.',
    badNumber: 'Enter a valid number (digits, with or without +).',
    lastError: (reason: string) => `The last try failed (${reason}): you may still pay until the request expires.`,
    other: 'Français',
    testUnit: (unit: string) => `${unit}: the provider's test environment's unit, standing for XAF or XOF; it is not real money.`,
    numbers:
      'Number ending: 101 successful after 10 s, 102 never answered, 103 payer not found, 104 not enough funds, 105 declined, 106 expired, 107 error 500 then successful, 108 no answer then successful, 109 notification sent twice; any other number: successful after 1 s.',
  },
} as const;

/** The currencies payers hold; any other on a page is a provider's test unit. */
const ISO_CURRENCIES = new Set(['XAF', 'XOF', 'EUR', 'USD']);

export type PageLanguage = keyof typeof TEXT;

export function pageLanguage(value: string | null | undefined, fallback: PageLanguage): PageLanguage {
  return value === 'fr' || value === 'en' ? value : fallback;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layout(lang: PageLanguage, title: string, body: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#222}button{display:block;width:100%;margin:.4rem 0;padding:.7rem;font-size:1rem}input{width:100%;padding:.6rem;font-size:1rem;box-sizing:border-box}.note{color:#666;font-size:.85rem}.error{color:#b00020}</style></head><body>${body}</body></html>`;
}

/** The page of one payment; `error` says what was wrong with the last form. */
export function paymentPage<E>(
  provider: string,
  payment: RedirectPayment<E> | undefined,
  lang: PageLanguage,
  opts: { path: string; prefill?: string; error?: 'number' },
): string {
  const t = TEXT[lang];
  const other: PageLanguage = lang === 'fr' ? 'en' : 'fr';
  if (payment === undefined) return layout(lang, t.title(provider), `<h1>${escape(t.title(provider))}</h1><p>${t.unknown}</p>`);
  const merchant = payment.merchantName === undefined ? '' : `<p>${t.merchant}: <strong data-merchant>${escape(payment.merchantName)}</strong></p>`;
  // A provider's test environment may count in a unit of its own (12000 OUV): say what it is.
  const unit = ISO_CURRENCIES.has(payment.currency) ? '' : `<p class="note" data-test-unit>${escape(t.testUnit(payment.currency))}</p>`;
  const head = `<h1>${escape(t.title(provider))}</h1>${merchant}<p>${t.amount}: <strong>${escape(payment.amount)} ${escape(payment.currency)}</strong></p>${unit}<p><a href="${escape(opts.path)}?lang=${other}">${t.other}</a></p>`;
  if (payment.state !== 'INITIATED') {
    const back = payment.state === 'SUCCESSFUL' || payment.state === 'PENDING' ? payment.successUrl : payment.failureUrl;
    return layout(lang, t.title(provider), `${head}<p role="status">${t.state[payment.state]}</p><p><a href="${escape(back)}">${t.back}</a></p>`);
  }
  const number = payment.phoneNumber ?? opts.prefill ?? '';
  const locked = payment.phoneNumber !== undefined ? ' readonly' : '';
  const error = opts.error === 'number' ? `<p class="error" role="alert">${t.badNumber}</p>` : '';
  // A provider that keeps the request open after a failed try (Wave) says so, as its page does.
  const tried = payment.lastError === undefined ? '' : `<p class="error" data-last-error>${escape(t.lastError(payment.lastError))}</p>`;
  const expiresAt = new Date(payment.expiresAt).toISOString().slice(11, 19);
  const form = `<form method="post" action="${escape(opts.path)}"><input type="hidden" name="lang" value="${lang}">
<label>${t.number}<input name="phoneNumber" inputmode="tel" value="${escape(number)}"${locked}></label>${error}
<button name="action" value="approve">${t.approve}</button><button name="action" value="decline">${t.decline}</button>
<button name="action" value="cancel">${t.cancel}</button><button name="action" value="expire">${t.expire}</button></form>`;
  return layout(
    lang,
    t.title(provider),
    `${head}<p role="status">${t.state.INITIATED}</p>${tried}${form}<p>${t.expires(expiresAt)}</p><p class="note">${t.sandbox}</p><p class="note">${t.numbers}</p>`,
  );
}

/**
 * GET shows the page of payment `id`; POST is its form: the payer's action, answered with a 303 to
 * where the provider sends them next, or the page again with what was wrong.
 */
export async function servePaymentPage<E>(
  provider: string,
  store: RedirectPayments<E>,
  method: string,
  id: string,
  req: IncomingMessage,
  pageUrl: string,
): Promise<SandboxAnswer> {
  const query = new URL(req.url ?? '/', 'http://sandbox.invalid').searchParams;
  const payment = store.get(id);
  let lang: PageLanguage = pageLanguage(query.get('lang'), payment?.language ?? 'fr');
  if (method === 'GET')
    return new SandboxAnswer(payment ? 200 : 404, paymentPage(provider, payment, lang, { path: pageUrl, prefill: query.get('msisdn') ?? undefined }));
  const form = formFields(await readRequestBody(req, 'too large'));
  lang = pageLanguage(form.lang, lang);
  const action = form.action;
  if (action !== 'approve' && action !== 'decline' && action !== 'cancel' && action !== 'expire')
    return new SandboxAnswer(400, paymentPage(provider, payment, lang, { path: pageUrl }));
  const done = store.act(id, action, form.phoneNumber?.trim() || undefined);
  if (done.ok) return new SandboxAnswer(303, undefined, { location: done.location });
  if (done.reason === 'number') return new SandboxAnswer(400, paymentPage(provider, payment, lang, { path: pageUrl, error: 'number' }));
  return new SandboxAnswer(done.reason === 'unknown' ? 404 : 409, paymentPage(provider, payment, lang, { path: pageUrl }));
}
