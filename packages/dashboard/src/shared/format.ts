/** A date input's value ("2026-11-01") as the start of that day in the browser's time zone. */
export function startOfLocalDay(value: string): Date {
  const [y, m, d] = value.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
}
