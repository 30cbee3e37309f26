import { chooseLanguage, type Language } from '@caisse/intl';
import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { browserLanguages } from '@caisse/react';
import { DashboardIntl, useDocumentLanguage, useI18n } from '../shared/i18n.tsx';
import { api, ApiProblem, onSessionLost, setCsrfToken } from './api.ts';
import { AcceptInvitation } from './pages/AcceptInvitation.tsx';
import { SignUp, VerifyEmail } from './pages/SignUp.tsx';
import { Login, ResetPassword } from './pages/Login.tsx';
import { SearchBox } from './pages/Search.tsx';
import { PAGES, pageAt } from './pages.tsx';
import { PermissionsProvider } from './permissions.tsx';
import { createQueryClient } from './queries/client.ts';
import { Link, navigate, useLocation } from './router.tsx';
import type { Mode, Session } from './types.ts';
import { ErrorNotice, LanguageSwitch, PageTitle } from './ui.tsx';

interface Route {
  mode: Mode;
  /** The page's `section`; undefined for a path no page has. */
  section: string | undefined;
  id: string | undefined;
  search: string;
}

/** `/dashboard/{mode}/{page path}[/{id}]` (`/dashboard/{mode}` is Home); anything else is undefined. */
function parse(location: string): Route | undefined {
  const [path = '', search = ''] = location.split('?');
  const [mode, ...rest] = path.replace(/\/+$/, '').split('/').slice(2).map(decodeURIComponent);
  if (mode !== 'test' && mode !== 'live') return undefined;
  const { page, id } = pageAt(rest.length === 0 ? ['home'] : rest);
  return { mode, section: page?.section, id, search };
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
  const page = PAGES.find((p) => p.section === section);
  const otherPath = (m: Mode) => `/dashboard/${m}/${page?.label ? page.path : 'payments'}`;
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
          {t('account.totpRequiredBanner')} {section !== 'account' && <Link to="/dashboard/live/account">{t('account.enrolNow')}</Link>}
        </div>
      )}
      <div className="shell">
        <nav className="sidenav" aria-label={t('dash.mainNav')}>
          <ul>
            {PAGES.filter((n) => n.label && (!n.testOnly || mode === 'test') && session.permissions.includes(n.permission)).map((n) => (
              <li key={n.section}>
                {n.group && <div className="group-label">{t(n.group)}</div>}
                <Link to={`/dashboard/${mode}/${n.path}`} aria-current={section === n.section ? 'page' : undefined}>
                  {n.group && <span className="visually-hidden">{t(n.group)} → </span>}
                  {n.label && t(n.label)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" className="content" tabIndex={-1}>
          <PermissionsProvider permissions={session.permissions}>
            {page ? page.render({ mode, id: route.id, search: route.search, session, onSessionChanged }) : <NotFound />}
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
  const [queryClient] = useState(createQueryClient);
  const choice = chooseLanguage({ saved: session?.language ?? picked, requested: browserLanguages(), merchantDefault: session?.merchant.language });
  useDocumentLanguage(choice.language);

  async function changeLanguage(language: Language) {
    setPicked(language);
    if (session) setSession(await api<Session>('PATCH', '/session', { language }));
  }

  return (
    <QueryClientProvider client={queryClient}>
      <DashboardIntl choice={choice}>
        <Signed session={session} setSession={setSession} language={choice.language} onLanguage={(l) => void changeLanguage(l)} />
      </DashboardIntl>
    </QueryClientProvider>
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
  const queryClient = useQueryClient();

  useEffect(() => {
    onSessionLost(() => {
      // What one user saw must not show to the next one to sign in.
      queryClient.clear();
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
  }, [setSession, queryClient]);

  const route = parse(location);
  const resetToken = /^\/dashboard\/reset-password\/([^/?]+)/.exec(location)?.[1];
  const invitation = /^\/dashboard\/invitations\/([^/?]+)/.exec(location)?.[1];
  const signingUp = /^\/dashboard\/sign-up\/?(\?|$)/.test(location);
  const verifyToken = /^\/dashboard\/verify-email\/?(\?|$)/.test(location) ? (new URLSearchParams(location.split('?')[1] ?? '').get('token') ?? '') : undefined;
  useEffect(() => {
    if (session && !route && resetToken === undefined && invitation === undefined && verifyToken === undefined)
      navigate('/dashboard/test/home', { replace: true });
  }, [session, route, resetToken, invitation, verifyToken]);

  /** A sign-in by a page of its own (sign-up, invitation): whoever was signed in before, none of their data stays. */
  function signedInAs(s: Session, to: string) {
    setCsrfToken(s.csrfToken);
    queryClient.clear();
    setExpired(false);
    setSession(s);
    navigate(to, { replace: true });
  }

  // The verification link's page works signed in or not.
  if (verifyToken !== undefined) return <VerifyEmail token={verifyToken} language={language} onLanguage={onLanguage} />;
  if (signingUp && session === null) {
    return <SignUp language={language} onLanguage={onLanguage} />;
  }

  // The reset link's page works signed in or not: it never needs a session.
  if (resetToken !== undefined) return <ResetPassword token={decodeURIComponent(resetToken)} language={language} onLanguage={onLanguage} />;
  // An invitation link opens its page whoever is signed in: accepting signs the new member in.
  if (invitation !== undefined) {
    return (
      <AcceptInvitation
        token={decodeURIComponent(invitation)}
        language={language}
        onLanguage={onLanguage}
        onSignedIn={(s) => signedInAs(s, '/dashboard/test/home')}
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
          queryClient.clear();
          setSession(null);
          navigate('/dashboard', { replace: true });
        });
      }}
    />
  );
}
