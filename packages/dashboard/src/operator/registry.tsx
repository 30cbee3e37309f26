import type { ReactNode } from 'react';
import type { MessageId } from '../shared/i18n.tsx';
import type { PageProps } from './shared.tsx';
import type { OperatorPermission } from './types.ts';
import { Audit } from './pages/Audit.tsx';
import { CustomerLimitsPage } from './pages/CustomerLimits.tsx';
import { Customers } from './pages/Customers.tsx';
import { MerchantPage } from './pages/MerchantPage.tsx';
import { Merchants } from './pages/Merchants.tsx';
import { MoneyPage } from './pages/Money.tsx';
import { Operators } from './pages/Operators.tsx';
import { Outbox } from './pages/Outbox.tsx';
import { PayoutReview } from './pages/PayoutReview.tsx';
import { Profiles } from './pages/Profiles.tsx';
import { ProviderAccounts } from './pages/ProviderAccounts.tsx';
import { Providers } from './pages/Providers.tsx';
import { Routes } from './pages/Routes.tsx';
import { LatePayments } from './pages/LatePayments.tsx';

/** One page of the console: its address under /operator, its name in the navigation, what it needs. */
export interface ConsolePage {
  path: string;
  label: MessageId;
  /** The permission the session must answer; without it the page is neither listed nor opened. */
  needs: OperatorPermission;
  render: (props: PageProps) => ReactNode;
  /** The page of one item under it (/operator/merchants/{id}), when there is one. */
  detail?: (props: PageProps & { id: string }) => ReactNode;
}

/**
 * Every page the shell can open, in the navigation's order. The server checks each call's
 * permission anyway; this only keeps the console from offering what the role cannot use.
 */
export const CONSOLE_PAGES: readonly ConsolePage[] = [
  {
    path: 'merchants',
    label: 'operator.merchantsTitle',
    needs: 'merchants:read',
    render: (p) => <Merchants key={p.search} {...p} />,
    detail: (p) => <MerchantPage key={p.id} {...p} />,
  },
  { path: 'profiles', label: 'operator.profilesTitle', needs: 'merchants:review', render: () => <Profiles /> },
  { path: 'outbox', label: 'operator.outboxTitle', needs: 'merchants:review', render: () => <Outbox /> },
  { path: 'payouts', label: 'operator.payoutsTitle', needs: 'payouts:review', render: (p) => <PayoutReview {...p} /> },
  { path: 'customers', label: 'operator.customersTitle', needs: 'customers:read', render: (p) => <Customers key={p.search} {...p} /> },
  { path: 'customer-limits', label: 'operator.limitsTitle', needs: 'customers:read', render: (p) => <CustomerLimitsPage {...p} /> },
  { path: 'providers', label: 'operator.providersTitle', needs: 'providers:read', render: () => <Providers /> },
  { path: 'provider-accounts', label: 'operator.accountsTitle', needs: 'providers:manage', render: () => <ProviderAccounts /> },
  { path: 'routes', label: 'operator.routesTitle', needs: 'providers:read', render: (p) => <Routes {...p} /> },
  { path: 'late-payments', label: 'operator.latePaymentsTitle', needs: 'money:read', render: (p) => <LatePayments {...p} /> },
  { path: 'money', label: 'operator.moneyTitle', needs: 'money:read', render: (p) => <MoneyPage {...p} /> },
  { path: 'audit', label: 'operator.auditTitle', needs: 'audit:read', render: () => <Audit /> },
  { path: 'operators', label: 'operator.operatorsTitle', needs: 'operators:read', render: (p) => <Operators {...p} /> },
];

/** The pages this session may open, in order. */
export const pagesFor = (can: (p: OperatorPermission) => boolean) => CONSOLE_PAGES.filter((p) => can(p.needs));
