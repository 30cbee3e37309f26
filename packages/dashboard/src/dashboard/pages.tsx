import type { ReactNode } from 'react';
import type { MessageId } from '../shared/i18n.tsx';
import { Account } from './pages/Account.tsx';
import { ApiKeys } from './pages/ApiKeys.tsx';
import { AuditLog } from './pages/AuditLog.tsx';
import { Balance } from './pages/Balance.tsx';
import { BusinessProfile } from './pages/BusinessProfile.tsx';
import { CustomerDetail, Customers } from './pages/Customers.tsx';
import { EventDetail, Events } from './pages/Events.tsx';
import { Home } from './pages/Home.tsx';
import { PaymentDetail } from './pages/PaymentDetail.tsx';
import { PaymentLinkDetail, PaymentLinks } from './pages/PaymentLinks.tsx';
import { PaymentMethods } from './pages/PaymentMethods.tsx';
import { Payments } from './pages/Payments.tsx';
import { PayoutDetail, Payouts } from './pages/Payouts.tsx';
import { Search } from './pages/Search.tsx';
import { Team } from './pages/Team.tsx';
import { TestData } from './pages/TestData.tsx';
import { WebhookEndpoint } from './pages/WebhookEndpoint.tsx';
import { Webhooks } from './pages/Webhooks.tsx';
import type { Permission } from './permissions.tsx';
import type { Mode, Session } from './types.ts';

/** What a page is given: the route's parts and the signed-in session. */
export interface PageProps {
  mode: Mode;
  /** The path's segment after the page's own, if any (`pi_…` on a payment's page). */
  id: string | undefined;
  search: string;
  session: Session;
  onSessionChanged: () => void;
}

/**
 * One page of the dashboard: where it lives (`/dashboard/{mode}/{path}[/{id}]`), its line in the
 * side navigation (none without `label`), who sees it, and what it shows. A new page is one entry
 * here (and its `nav.*` text in both catalogues).
 */
export interface PageEntry {
  section: string;
  path: string;
  label?: MessageId;
  /** A line shows only to a role with this permission (the server refuses the page's calls anyway). */
  permission: Permission;
  /** The heading of the navigation group this line starts. */
  group?: MessageId;
  testOnly?: boolean;
  render: (props: PageProps) => ReactNode;
}

export const PAGES: PageEntry[] = [
  { section: 'home', path: 'home', label: 'nav.home', permission: 'payments:read', render: ({ mode }) => <Home mode={mode} /> },
  {
    section: 'payments',
    path: 'payments',
    label: 'nav.payments',
    permission: 'payments:read',
    render: ({ mode, id, search }) => (id ? <PaymentDetail mode={mode} id={id} /> : <Payments mode={mode} search={search} />),
  },
  {
    section: 'payment-links',
    path: 'payment-links',
    label: 'nav.paymentLinks',
    permission: 'payments:read',
    render: ({ mode, id }) => (id ? <PaymentLinkDetail mode={mode} id={id} /> : <PaymentLinks mode={mode} />),
  },
  {
    section: 'customers',
    path: 'customers',
    label: 'nav.customers',
    permission: 'customers:read',
    render: ({ mode, id }) => (id ? <CustomerDetail mode={mode} id={id} /> : <Customers mode={mode} />),
  },
  {
    section: 'balance',
    path: 'balance',
    label: 'nav.balance',
    permission: 'balance:read',
    render: ({ mode, search }) => <Balance mode={mode} search={search} />,
  },
  {
    section: 'payouts',
    path: 'payouts',
    label: 'nav.payouts',
    permission: 'payouts:read',
    render: ({ mode, id }) => (id ? <PayoutDetail mode={mode} id={id} /> : <Payouts mode={mode} />),
  },
  {
    section: 'webhooks',
    path: 'webhooks',
    label: 'nav.webhooks',
    permission: 'webhooks:read',
    render: ({ mode, id }) => (id ? <WebhookEndpoint mode={mode} id={id} /> : <Webhooks mode={mode} />),
  },
  {
    section: 'events',
    path: 'events',
    label: 'nav.events',
    permission: 'events:read',
    render: ({ mode, id, search }) => (id ? <EventDetail mode={mode} id={id} /> : <Events mode={mode} search={search} />),
  },
  {
    section: 'api-keys',
    path: 'settings/api-keys',
    label: 'nav.apiKeys',
    permission: 'keys:read',
    group: 'nav.settings',
    render: ({ mode }) => <ApiKeys mode={mode} />,
  },
  {
    section: 'payment-methods',
    path: 'settings/payment-methods',
    label: 'nav.paymentMethods',
    permission: 'settings:read',
    render: ({ mode }) => <PaymentMethods mode={mode} />,
  },
  { section: 'business-profile', path: 'settings/profile', label: 'nav.businessProfile', permission: 'settings:read', render: () => <BusinessProfile /> },
  { section: 'team', path: 'settings/team', label: 'nav.team', permission: 'team:read', render: ({ session }) => <Team session={session} /> },
  { section: 'audit-log', path: 'settings/audit-log', label: 'nav.auditLog', permission: 'audit:read', render: () => <AuditLog /> },
  {
    section: 'test-data',
    path: 'test-data',
    label: 'nav.testData',
    permission: 'testdata:write',
    testOnly: true,
    render: ({ mode }) => <TestData mode={mode} />,
  },
  {
    section: 'account',
    path: 'account',
    label: 'nav.account',
    permission: 'account',
    render: ({ onSessionChanged }) => <Account onSessionChanged={onSessionChanged} />,
  },
  { section: 'search', path: 'search', permission: 'payments:read', render: ({ mode, search }) => <Search mode={mode} search={search} /> },
];

/** The page at a path under `/dashboard/{mode}/` (its longest matching `path`), and what follows it. */
export function pageAt(parts: string[]): { page: PageEntry | undefined; id: string | undefined } {
  const path = parts.join('/');
  let best: PageEntry | undefined;
  for (const page of PAGES) {
    if ((path === page.path || path.startsWith(`${page.path}/`)) && (best === undefined || page.path.length > best.path.length)) best = page;
  }
  if (best === undefined) return { page: undefined, id: parts[0] === undefined ? undefined : parts[1] };
  return { page: best, id: parts[best.path.split('/').length] };
}
