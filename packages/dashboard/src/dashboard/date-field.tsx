import { useEffect, useState } from 'react';
import { useI18n } from '../shared/i18n.tsx';

/**
 * A date typed as the page's language writes it ("26/11/2026" in French, "11/26/2026" in US
 * English): Chromium's native date input follows the browser's language, not the page's, and shows
 * "mm/dd/yyyy" in a French dashboard (docs/decisions/0043-first-hour-second-pass.md). The value is
 * the native input's (`2026-11-26`, `''` when empty), so the pages' filters did not change.
 */

type Part = 'day' | 'month' | 'year';

/** The order of day, month and year in the locale's short dates (fr-CM: day, month, year). */
export function dateOrder(locale: string): Part[] {
  const parts = new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }).formatToParts(Date.UTC(2026, 10, 26));
  const order = parts.map((p) => p.type).filter((t): t is Part => t === 'day' || t === 'month' || t === 'year');
  return order.length === 3 ? order : ['day', 'month', 'year'];
}

/** `2026-11-26` as the locale writes it, or '' for an empty or unreadable value. */
export function showDate(value: string, locale: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return '';
  const parts: Record<Part, string> = { year: m[1] as string, month: m[2] as string, day: m[3] as string };
  return dateOrder(locale)
    .map((p) => parts[p])
    .join('/');
}

/** What the person typed ("26/11/2026", "26.11.2026", "26-11-26") as `2026-11-26`; null when it is no real date. */
export function readDate(text: string, locale: string): string | null {
  // An ISO date (2026-11-26: pasted, or typed by whoever knows it) reads the same in every language.
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text.trim());
  const numbers = iso ? [iso[3], iso[2], iso[1]] : text.trim().split(/[^0-9]+/);
  const order: Part[] = iso ? ['day', 'month', 'year'] : dateOrder(locale);
  if (numbers.length !== 3 || numbers.some((n) => n === '')) return null;
  const parts = {} as Record<Part, number>;
  order.forEach((p, i) => (parts[p] = Number(numbers[i])));
  const year = parts.year < 100 ? 2000 + parts.year : parts.year;
  const date = new Date(Date.UTC(year, parts.month - 1, parts.day));
  if (year < 1970 || year > 9999 || date.getUTCMonth() !== parts.month - 1 || date.getUTCDate() !== parts.day) return null;
  return date.toISOString().slice(0, 10);
}

export function DateField({ id, value, onChange, describedBy }: { id: string; value: string; onChange: (value: string) => void; describedBy?: string }) {
  const { t, locale } = useI18n();
  const [text, setText] = useState(() => showDate(value, locale));
  // A value set from outside (cleared filters, another language) shows as that language writes it.
  useEffect(() => {
    setText((current) => (readDate(current, locale) === value || (current === '' && value === '') ? current : showDate(value, locale)));
  }, [value, locale]);
  const letters: Record<Part, string> = { day: t('date.day'), month: t('date.month'), year: t('date.year') };
  const pattern = dateOrder(locale)
    .map((p) => letters[p])
    .join('/');
  const invalid = text.trim() !== '' && readDate(text, locale) === null;
  return (
    <>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder={pattern}
        value={text}
        aria-invalid={invalid}
        aria-describedby={[describedBy, `${id}-format`].filter(Boolean).join(' ')}
        onChange={(e) => {
          setText(e.target.value);
          const read = e.target.value.trim() === '' ? '' : readDate(e.target.value, locale);
          if (read !== null) onChange(read);
        }}
      />
      <span id={`${id}-format`} className={invalid ? 'hint error-text' : 'visually-hidden'}>
        {t('date.format', { pattern })}
      </span>
    </>
  );
}
