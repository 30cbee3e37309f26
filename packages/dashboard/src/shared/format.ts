/** Display helpers shared by the dashboard and the checkout page. Amounts stay strings: no floats. */

/** "1234567.5" → "1 234 567.5" (narrow no-break spaces between thousands). */
export function groupDigits(amount: string): string {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction] = (negative ? amount.slice(1) : amount).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
  return `${negative ? '−' : ''}${grouped}${fraction !== undefined ? `.${fraction}` : ''}`;
}

export function formatMoney(amount: string, currency: string): string {
  return `${groupDigits(amount)} ${currency}`;
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const at = new Date(iso);
  return at.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
}

/** A date input's value ("2026-11-01") as the start of that day in the browser's time zone. */
export function startOfLocalDay(value: string): Date {
  const [y, m, d] = value.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
}
