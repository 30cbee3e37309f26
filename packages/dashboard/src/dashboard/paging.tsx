import { type ReactNode, useCallback, useState } from 'react';
import type { List } from './types.ts';
import { ErrorNotice, TableWrap, useLoad } from './ui.tsx';

export interface Pages<T> {
  rows: T[];
  hasMore: boolean;
  /** True while the first page loads for the first time. */
  loading: boolean;
  error: unknown;
  moreError: unknown;
  loadMore: () => Promise<void>;
  /** Loads the first page again and forgets the pages after it. */
  reload: () => void;
}

/**
 * A cursor-paginated list (`startingAfter` = the last row's id): the first page loads when `key`
 * changes, "Load more" appends the next one. Pages loaded for another key are never shown.
 */
export function usePages<T extends { id: string }>(load: (startingAfter?: string) => Promise<List<T>>, key: string): Pages<T> {
  const first = useLoad(() => load(), key);
  const [more, setMore] = useState<{ key: string; rows: T[]; hasMore: boolean } | null>(null);
  const [moreError, setMoreError] = useState<unknown>(null);
  const extra = more?.key === key ? more : null;
  const rows = [...(first.data?.data ?? []), ...(extra?.rows ?? [])];
  const hasMore = extra ? extra.hasMore : (first.data?.hasMore ?? false);
  const { reload: reloadFirst } = first;

  async function loadMore() {
    const last = rows[rows.length - 1];
    if (!last) return;
    setMoreError(null);
    try {
      const page = await load(last.id);
      setMore({ key, rows: [...(extra?.rows ?? []), ...page.data], hasMore: page.hasMore });
    } catch (err) {
      setMoreError(err);
    }
  }

  const reload = useCallback(() => {
    setMore(null);
    reloadFirst();
  }, [reloadFirst]);

  return { rows, hasMore, loading: first.loading && !first.data, error: first.error, moreError, loadMore, reload };
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
