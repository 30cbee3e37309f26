import { type QueryKey, useInfiniteQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { List } from './types.ts';
import { ErrorNotice, TableWrap } from './ui.tsx';

export interface Pages<T> {
  rows: T[];
  hasMore: boolean;
  /** True while the first page loads for the first time. */
  loading: boolean;
  error: unknown;
  moreError: unknown;
  loadMore: () => Promise<void>;
}

/**
 * A cursor-paginated list (`startingAfter` = the last row's id) cached under `queryKey`: "Load
 * more" appends the next page; invalidating the key loads again the pages already shown.
 */
export function usePages<T extends { id: string }>(queryKey: QueryKey, load: (startingAfter?: string) => Promise<List<T>>): Pages<T> {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => load(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: List<T>) => (last.hasMore ? last.data[last.data.length - 1]?.id : undefined),
  });
  const rows = query.data?.pages.flatMap((p) => p.data) ?? [];
  return {
    rows,
    hasMore: query.hasNextPage,
    loading: query.isPending,
    error: query.isFetchNextPageError ? null : query.error,
    moreError: query.isFetchNextPageError ? query.error : null,
    loadMore: async () => {
      await query.fetchNextPage();
    },
  };
}

/**
 * A cursor-paginated table: the loading line, the error, the table (a visually hidden caption,
 * one header per column, a line when it is empty, one row per item), then "Load more".
 */
export function PagedTable<T extends { id: string }>(props: {
  pages: Pages<T>;
  label: string;
  caption: string;
  columns: { label: string; num?: boolean }[];
  text: { loading: string; empty: ReactNode; loadMore: string };
  row: (item: T) => ReactNode;
}) {
  const { pages, columns, text } = props;
  return (
    <>
      <ErrorNotice error={pages.error} />
      {pages.loading ? (
        <p role="status">{text.loading}</p>
      ) : (
        <TableWrap label={props.label}>
          <table>
            <caption className="visually-hidden">{props.caption}</caption>
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c.label} scope="col" className={c.num ? 'num' : undefined}>
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {pages.rows.length === 0 && (
                <tr>
                  <td colSpan={columns.length} className="empty">
                    {text.empty}
                  </td>
                </tr>
              )}
              {pages.rows.map(props.row)}
            </tbody>
          </table>
        </TableWrap>
      )}
      <LoadMore pages={pages} label={text.loadMore} />
    </>
  );
}

/** The next page's error, and "Load more" while there is one: under a PagedTable or a list's own table. */
export function LoadMore<T>({ pages, label }: { pages: Pages<T>; label: string }) {
  return (
    <>
      <ErrorNotice error={pages.moreError} />
      {pages.hasMore && (
        <button type="button" className="secondary" onClick={() => void pages.loadMore()}>
          {label}
        </button>
      )}
    </>
  );
}
