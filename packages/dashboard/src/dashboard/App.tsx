import { useEffect, useState } from 'react';
import { api, ApiProblem, onSessionLost, setCsrfToken } from './api.ts';
import { ApiKeys } from './pages/ApiKeys.tsx';
import { Balance } from './pages/Balance.tsx';
import { CustomerDetail, Customers } from './pages/Customers.tsx';
import { Login } from './pages/Login.tsx';
import { PaymentDetail } from './pages/PaymentDetail.tsx';
import { Payments } from './pages/Payments.tsx';
import { PayoutDetail, Payouts } from './pages/Payouts.tsx';
import { TestData } from './pages/TestData.tsx';
import { WebhookEndpoint } from './pages/WebhookEndpoint.tsx';
import { Webhooks } from './pages/Webhooks.tsx';
import { Link, navigate, useLocation } from './router.tsx';
import type { Mode, Session } from './types.ts';
import { ErrorNotice, PageTitle } from './ui.tsx';

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
  if (section === 'settings' && rest[0] === 'api-keys') return { mode, section: 'api-keys', id: undefined, search };
  return { mode, section: section ?? 'payments', id: rest[0], search };
}

const NAV = [
  { section: 'payments', path: 'payments', label: 'Payments' },
  { section: 'customers', path: 'customers', label: 'Customers' },
  { section: 'balance', path: 'balance', label: 'Balance' },
  { section: 'payouts', path: 'payouts', label: 'Payouts' },
  { section: 'webhooks', path: 'webhooks', label: 'Webhooks' },
  { section: 'api-keys', path: 'settings/api-keys', label: 'API keys', group: 'Settings' },
  { section: 'test-data', path: 'test-data', label: 'Test data', testOnly: true },
];

function Page({ route }: { route: Route }) {
  const { mode, section, id, search } = route;
  switch (section) {
    case 'payments':
      return id ? <PaymentDetail mode={mode} id={id} /> : <Payments mode={mode} search={search} />;
    case 'customers':
      return id ? <CustomerDetail mode={mode} id={id} /> : <Customers mode={mode} />;
    case 'balance':
      return <Balance mode={mode} search={search} />;
    case 'payouts':
      return id ? <PayoutDetail mode={mode} id={id} /> : <Payouts mode={mode} />;
    case 'webhooks':
      return id ? <WebhookEndpoint mode={mode} id={id} /> : <Webhooks mode={mode} />;
    case 'api-keys':
      return <ApiKeys mode={mode} />;
    case 'test-data':
      return <TestData mode={mode} />;
    default:
      return <NotFound />;
  }
}

function NotFound() {
  return (
    <>
      <PageTitle title="Not found">Page not found</PageTitle>
      <p>
        <Link to="/dashboard/test/payments">Go to payments</Link>
      </p>
    </>
  );
}

function Shell({ session, route, onSignOut }: { session: Session; route: Route; onSignOut: () => void }) {
  const { mode, section } = route;
  const otherPath = (m: Mode) => {
    const nav = NAV.find((n) => n.section === section);
    return `/dashboard/${m}/${nav?.path ?? 'payments'}`;
  };
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to={`/dashboard/${mode}/payments`} className="brand">
          Caisse
        </Link>
        <span className="merchant-name">{session.merchant.name}</span>
        <span className="spacer" />
        <div className="segmented" role="group" aria-label="Mode">
          {(['test', 'live'] as const).map((m) => (
            <button key={m} type="button" aria-pressed={mode === m} onClick={() => mode !== m && navigate(otherPath(m))}>
              {m === 'test' ? 'Test mode' : 'Live mode'}
            </button>
          ))}
        </div>
        <span className="hint" title="Signed in as">
          {session.email}
        </span>
        <button type="button" className="secondary" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <div className={`mode-banner ${mode}`} role="note">
        {mode === 'test' ? 'Test mode: test keys, test payments and test data only. No real money moves.' : 'Live mode: real payments and real money.'}
      </div>
      <div className="shell">
        <nav className="sidenav" aria-label="Main">
          <ul>
            {NAV.filter((n) => !n.testOnly || mode === 'test').map((n) => (
              <li key={n.section}>
                {n.group && <div className="group-label">{n.group}</div>}
                <Link to={`/dashboard/${mode}/${n.path}`} aria-current={section === n.section ? 'page' : undefined}>
                  {n.group && <span className="visually-hidden">{n.group} → </span>}
                  {n.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" className="content" tabIndex={-1}>
          <Page route={route} />
        </main>
      </div>
    </>
  );
}

export function App() {
  const location = useLocation();
  const [session, setSession] = useState<Session | null | undefined>(undefined);
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
  }, []);

  const route = parse(location);
  useEffect(() => {
    if (session && !route) navigate('/dashboard/test/payments', { replace: true });
  }, [session, route]);

  if (session === undefined) return <p role="status">Loading…</p>;
  if (session === null) {
    return (
      <>
        {error ? <ErrorNotice error={error} /> : null}
        <Login
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
  if (!route) return <p role="status">Loading…</p>;
  return (
    <Shell
      session={session}
      route={route}
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
