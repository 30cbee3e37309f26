import { chooseLanguage, type Language } from '@caisse/intl';
import { useEffect, useState } from 'react';
import { browserLanguages } from '@caisse/react';
import { DashboardIntl, type MessageId, useDocumentLanguage, useI18n } from '../shared/i18n.tsx';
import { api, ApiProblem, onSessionLost, setCsrfToken } from './api.ts';
import { AcceptInvitation } from './pages/AcceptInvitation.tsx';
import { ApiKeys } from './pages/ApiKeys.tsx';
import { AuditLog } from './pages/AuditLog.tsx';
import { Balance } from './pages/Balance.tsx';
import { CustomerDetail, Customers } from './pages/Customers.tsx';
import { EventDetail, Events } from './pages/Events.tsx';
import { Account } from './pages/Account.tsx';
import { Home } from './pages/Home.tsx';
import { Login, ResetPassword } from './pages/Login.tsx';
import { PaymentDetail } from './pages/PaymentDetail.tsx';
import { PaymentLinkDetail, PaymentLinks } from './pages/PaymentLinks.tsx';
import { PaymentMethods } from './pages/PaymentMethods.tsx';
import { Payments } from './pages/Payments.tsx';
import { Search, SearchBox } from './pages/Search.tsx';
import { PayoutDetail, Payouts } from './pages/Payouts.tsx';
import { Team } from './pages/Team.tsx';
import { TestData } from './pages/TestData.tsx';
import { type Permission, PermissionsProvider } from './permissions.tsx';
import { WebhookEndpoint } from './pages/WebhookEndpoint.tsx';
import { Webhooks } from './pages/Webhooks.tsx';
import { Link, navigate, useLocation } from './router.tsx';
import type { Mode, Session } from './types.ts';
import { ErrorNotice, LanguageSwitch, PageTitle } from './ui.tsx';

interface Route {
  mode: Mode;
  section: string;
  id: string | undefined;
  search: string;
}

/** `/dashboard/{mode}/{section}[/{id}]`; anything else is undefined. */
function parse(location: string): Route | undefined {
  const [path = '', search = ''] = location.split('?');
  const parts = path.replace(/\/+$/, '').split('/').slice(2).map(decodeURIComponent);
  const [mode, section, ...rest] = parts;
  if (mode !== 'test' && mode !== 'live') return undefined;
  if (section === 'settings' && (rest[0] === 'api-keys' || rest[0] === 'payment-methods' || rest[0] === 'team' || rest[0] === 'audit-log')) return { mode, section: rest[0], id: undefined, search };
  return { mode, section: section ?? 'home', id: rest[0], search };
}

/** The side navigation: a new page adds its line here (and its `nav.*` text to both catalogues). */
/** A line shows only to a role with its `permission` (the server refuses the page's calls anyway). */
const NAV: { section: string; path: string; label: MessageId; permission: Permission; group?: MessageId; testOnly?: boolean }[] = [
  { section: 'home', path: 'home', label: 'nav.home', permission: 'payments:read' },
  { section: 'payments', path: 'payments', label: 'nav.payments', permission: 'payments:read' },
  { section: 'payment-links', path: 'payment-links', label: 'nav.paymentLinks', permission: 'payments:read' },
  { section: 'customers', path: 'customers', label: 'nav.customers', permission: 'customers:read' },
  { section: 'balance', path: 'balance', label: 'nav.balance', permission: 'balance:read' },
  { section: 'payouts', path: 'payouts', label: 'nav.payouts', permission: 'payouts:read' },
  { section: 'webhooks', path: 'webhooks', label: 'nav.webhooks', permission: 'webhooks:read' },
  { section: 'events', path: 'events', label: 'nav.events', permission: 'events:read' },
  { section: 'api-keys', path: 'settings/api-keys', label: 'nav.apiKeys', permission: 'keys:read', group: 'nav.settings' },
  { section: 'payment-methods', path: 'settings/payment-methods', label: 'nav.paymentMethods', permission: 'settings:read' },
  { section: 'team', path: 'settings/team', label: 'nav.team', permission: 'team:read' },
  { section: 'audit-log', path: 'settings/audit-log', label: 'nav.auditLog', permission: 'audit:read' },
  { section: 'test-data', path: 'test-data', label: 'nav.testData', permission: 'testdata:write', testOnly: true },
  { section: 'account', path: 'account', label: 'nav.account', permission: 'account' },
];

function Page({ route, session, onSessionChanged }: { route: Route; session: Session; onSessionChanged: () => void }) {
  const { mode, section, id, search } = route;
  switch (section) {
    case 'home':
      return <Home mode={mode} />;
    case 'account':
      return <Account onSessionChanged={onSessionChanged} />;
    case 'payments':
      return id ? <PaymentDetail mode={mode} id={id} /> : <Payments mode={mode} search={search} />;
    case 'payment-links':
      return id ? <PaymentLinkDetail mode={mode} id={id} /> : <PaymentLinks mode={mode} />;
    case 'customers':
      return id ? <CustomerDetail mode={mode} id={id} /> : <Customers mode={mode} />;
    case 'balance':
      return <Balance mode={mode} search={search} />;
    case 'payouts':
      return id ? <PayoutDetail mode={mode} id={id} /> : <Payouts mode={mode} />;
    case 'webhooks':
      return id ? <WebhookEndpoint mode={mode} id={id} /> : <Webhooks mode={mode} />;
    case 'events':
      return id ? <EventDetail mode={mode} id={id} /> : <Events mode={mode} search={search} />;
    case 'api-keys':
      return <ApiKeys mode={mode} />;
    case 'payment-methods':
      return <PaymentMethods mode={mode} />;
    case 'test-data':
      return <TestData mode={mode} />;
    case 'team':
      return <Team session={session} />;
    case 'audit-log':
      return <AuditLog />;
    case 'search':
      return <Search mode={mode} search={search} />;
    default:
      return <NotFound />;
  }
}

function NotFound() {
  const { t } = useI18n();
  return (
    <>
      <PageTitle title={t('dash.notFoundTitle')}>{t('dash.notFound')}</PageTitle>
      <p>
        <Link to="/dashboard/test/payments">{t('dash.goToPayments')}</Link>
      </p>
    </>
  );
}

function Shell({
  session,
  route,
  onSignOut,
  onSessionChanged,
  language,
  onLanguage,
}: {
  session: Session;
  route: Route;
  onSignOut: () => void;
  onSessionChanged: () => void;
  language: Language;
  onLanguage: (l: Language) => void;
}) {
  const { mode, section } = route;
  const { t } = useI18n();
  const otherPath = (m: Mode) => {
    const nav = NAV.find((n) => n.section === section);
    return `/dashboard/${m}/${nav?.path ?? 'payments'}`;
  };
  return (
    <>
      <a className="skip-link" href="#main">
        {t('dash.skip')}
      </a>
      <header className="topbar">
        <Link to={`/dashboard/${mode}/home`} className="brand">
          Caisse
        </Link>
        <span className="merchant-name">{session.merchant.name}</span>
        <SearchBox key={`${mode}?${route.search}`} mode={mode} initial={section === 'search' ? (new URLSearchParams(route.search).get('q') ?? '') : ''} />
        <span className="spacer" />
        <div className="segmented" role="group" aria-label={t('dash.mode')}>
          {(['test', 'live'] as const).map((m) => (
            <button key={m} type="button" aria-pressed={mode === m} onClick={() => mode !== m && navigate(otherPath(m))}>
              {m === 'test' ? t('dash.testMode') : t('dash.liveMode')}
            </button>
          ))}
        </div>
        <LanguageSwitch value={language} onChange={onLanguage} />
        <span className="hint" title={t('dash.signedInAs')}>
          {session.email}
        </span>
        <button type="button" className="secondary" onClick={onSignOut}>
          {t('dash.signOut')}
        </button>
      </header>
      <div className={`mode-banner ${mode}`} role="note">
        {mode === 'test' ? t('dash.testBanner') : t('dash.liveBanner')}
      </div>
      {mode === 'live' && !session.totpEnabled && (
        <div className="notice warning totp-banner" role="note">
          {t('account.totpRequiredBanner')}{' '}
          {section !== 'account' && <Link to="/dashboard/live/account">{t('account.enrolNow')}</Link>}
        </div>
      )}
      <div className="shell">
        <nav className="sidenav" aria-label={t('dash.mainNav')}>
          <ul>
            {NAV.filter((n) => (!n.testOnly || mode === 'test') && session.permissions.includes(n.permission)).map((n) => (
              <li key={n.section}>
                {n.group && <div className="group-label">{t(n.group)}</div>}
                <Link to={`/dashboard/${mode}/${n.path}`} aria-current={section === n.section ? 'page' : undefined}>
                  {n.group && <span className="visually-hidden">{t(n.group)} → </span>}
                  {t(n.label)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" className="content" tabIndex={-1}>
          <PermissionsProvider permissions={session.permissions}>
            <Page route={route} session={session} onSessionChanged={onSessionChanged} />
          </PermissionsProvider>
        </main>
      </div>
    </>
  );
}

/**
 * The dashboard in the user's language: their own choice (saved on their account),
 * else the browser's languages, else the merchant's default, else French. Before sign-in the
 * switch changes the page only; once signed in it is saved (PATCH /dashboard/api/session).
 */
export function App() {
  const [picked, setPicked] = useState<Language | null>(null);
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const choice = chooseLanguage({ saved: session?.language ?? picked, requested: browserLanguages(), merchantDefault: session?.merchant.language });
  useDocumentLanguage(choice.language);

  async function changeLanguage(language: Language) {
    setPicked(language);
    if (session) setSession(await api<Session>('PATCH', '/session', { language }));
  }

  return (
    <DashboardIntl choice={choice}>
      <Signed session={session} setSession={setSession} language={choice.language} onLanguage={(l) => void changeLanguage(l)} />
    </DashboardIntl>
  );
}

function Signed({
  session,
  setSession,
  language,
  onLanguage,
}: {
  session: Session | null | undefined;
  setSession: (s: Session | null) => void;
  language: Language;
  onLanguage: (l: Language) => void;
}) {
  const { t } = useI18n();
  const location = useLocation();
  const [expired, setExpired] = useState(false);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    onSessionLost(() => {
      setExpired(true);
      setSession(null);
    });
    api<Session>('GET', '/session').then(
      (s) => {
        setCsrfToken(s.csrfToken);
        setSession(s);
      },
      (err: unknown) => {
        if (!(err instanceof ApiProblem && err.code === 'session_required')) setError(err);
        setSession(null);
      },
    );
  }, [setSession]);

  const route = parse(location);
  const resetToken = /^\/dashboard\/reset-password\/([^/?]+)/.exec(location)?.[1];
  const invitation = /^\/dashboard\/invitations\/([^/?]+)/.exec(location)?.[1];
  useEffect(() => {
    if (session && !route && resetToken === undefined && invitation === undefined) navigate('/dashboard/test/home', { replace: true });
  }, [session, route, resetToken, invitation]);

  // The reset link's page works signed in or not: it never needs a session.
  if (resetToken !== undefined) return <ResetPassword token={decodeURIComponent(resetToken)} language={language} onLanguage={onLanguage} />;
  // An invitation link opens its page whoever is signed in: accepting signs the new member in.
  if (invitation !== undefined) {
    return (
      <AcceptInvitation
        token={decodeURIComponent(invitation)}
        language={language}
        onLanguage={onLanguage}
        onSignedIn={(s) => {
          setCsrfToken(s.csrfToken);
          setExpired(false);
          setSession(s);
          navigate('/dashboard/test/home', { replace: true });
        }}
      />
    );
  }

  if (session === undefined) return <p role="status">{t('dash.loading')}</p>;
  if (session === null) {
    return (
      <>
        {error ? <ErrorNotice error={error} /> : null}
        <Login
          language={language}
          onLanguage={onLanguage}
          expired={expired}
          onSignedIn={(s) => {
            setCsrfToken(s.csrfToken);
            setExpired(false);
            setSession(s);
          }}
        />
      </>
    );
  }
  if (!route) return <p role="status">{t('dash.loading')}</p>;
  return (
    <Shell
      session={session}
      route={route}
      language={language}
      onLanguage={onLanguage}
      onSessionChanged={() => {
        void api<Session>('GET', '/session').then(setSession, () => undefined);
      }}
      onSignOut={() => {
        void api('POST', '/logout').finally(() => {
          setCsrfToken('');
          setSession(null);
          navigate('/dashboard', { replace: true });
        });
      }}
    />
  );
}
