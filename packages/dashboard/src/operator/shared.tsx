import { type ReactNode, useId } from 'react';
import { type MessageId, useI18n } from '../shared/i18n.tsx';
import { ApiProblem } from '../dashboard/api.ts';
import { ErrorNotice, TableWrap } from '../dashboard/ui.tsx';
import type { OperatorPermission } from './types.ts';

/** What every console page is given by the shell: the session's permissions and the address. */
export interface PageProps {
  can: (p: OperatorPermission) => boolean;
  /** The query string of the address, without `?`. */
  search: string;
  /** The path segment after the page's own (a merchant's id), when there is one. */
  id?: string;
}

/** The errors the console words its own way; any other as the dashboard does (never the API's English `detail`). */
const OPERATOR_ERROR_TEXTS: Record<string, MessageId> = {
  totp_code_invalid: 'operator.error.code',
  totp_code_required: 'operator.error.codeRequired',
  permission_denied: 'operator.error.permission',
  four_eyes_required: 'operator.error.fourEyes',
  payment_method_not_allowed: 'operator.error.methodNotAllowed',
  payout_state_invalid: 'operator.error.payoutDecided',
  provider_settings_invalid: 'operator.error.providerSettings',
  route_invalid: 'operator.error.routeInvalid',
};

export function OperatorError({ error }: { error: unknown }) {
  const { t } = useI18n();
  // A provider account's refused setting or credential is named, as the CLI names it.
  const named = error instanceof ApiProblem && error.code === 'provider_settings_invalid' ? /^(settings|credentials)\.(.+)$/.exec(error.param ?? '') : null;
  if (named) return <ErrorNotice error={new Error(t('operator.error.providerSetting', { kind: named[1] as string, name: named[2] as string }))} />;
  return <ErrorNotice error={error} texts={OPERATOR_ERROR_TEXTS} />;
}

export function Field({ label, hint, children }: { label: string; hint?: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {hint && <span className="hint">{hint}</span>}
      </label>
      {children(id)}
    </div>
  );
}

/** A table with its column headings, scrollable sideways on small screens. */
export function Table({ label, head, children }: { label: string; head: string[]; children: ReactNode }) {
  return (
    <TableWrap label={label}>
      <table>
        <thead>
          <tr>
            {head.map((h) => (
              <th scope="col" key={h}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableWrap>
  );
}

export function kindText(t: (id: MessageId) => string, kind: string): string {
  const known: Record<string, MessageId> = {
    merchant_pending: 'operator.kind.pending',
    merchant_balance: 'operator.kind.available',
    merchant_reserve: 'operator.kind.reserve',
    user_wallet: 'operator.kind.wallets',
    provider_clearing: 'operator.kind.clearing',
    platform_revenue: 'operator.kind.revenue',
    payout_transit: 'operator.kind.transit',
    external: 'operator.kind.external',
  };
  return known[kind] ? t(known[kind] as MessageId) : kind;
}

/** Test or live, in words. */
export function useModeText() {
  const { t } = useI18n();
  return (mode: 'test' | 'live' | boolean) => (mode === true || mode === 'live' ? t('dash.liveMode') : t('dash.testMode'));
}

export function Loading({ shown }: { shown: boolean }) {
  const { t } = useI18n();
  return shown ? <p role="status">{t('dash.loading')}</p> : null;
}
