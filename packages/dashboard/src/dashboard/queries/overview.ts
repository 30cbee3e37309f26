import { useQuery } from '@tanstack/react-query';
import type { Mode, Overview, OverviewPeriod } from '../types.ts';
import { get, modePath } from './client.ts';
import { keys } from './keys.ts';

/** The Home page's figures for `period` against the one before, with their series. */
export function useOverview(mode: Mode, period: OverviewPeriod) {
  return useQuery({ queryKey: keys.overview.period(mode, period), queryFn: () => get<Overview>(`${modePath(mode, 'overview')}?period=${period}`) });
}
