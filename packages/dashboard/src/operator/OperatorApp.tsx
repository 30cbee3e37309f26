import { chooseLanguage, type Language } from '@caisse/intl';
import { type ReactNode, useEffect, useState } from 'react';
import { browserLanguages } from '@caisse/react';
import { DashboardIntl, useDocumentLanguage, useI18n } from '../shared/i18n.tsx';
import { api, ApiProblem, onSessionLost, setCsrfToken } from '../dashboard/api.ts';
import { Link, navigate, useLocation } from '../dashboard/router.tsx';
import { LanguageSwitch, PageTitle } from '../dashboard/ui.tsx';
import { Enrol } from './pages/Enrol.tsx';
import { SignIn } from './pages/SignIn.tsx';
import { pagesFor } from './registry.tsx';
import { OperatorError } from './shared.tsx';
import type { OperatorPermission, OperatorSession } from './types.ts';

/**
 * The operator console at /operator (issue 34): sign-in with TOTP (enrolled at the first
 * sign-in), then the pages of the registry (registry.tsx) the session's permissions allow.
 * It talks to /operator/api with its own session cookie; the server checks every permission, the
 * pages only hide what the role cannot use.
 */

function Shell({
  session,
  onSignOut,
  language,
  onLanguage,
}: {
  session: OperatorSession;
  onSignOut: () => void;
  language: Language;
  onLanguage: (l: Language) => void;
}) {
  const { t } = useI18n();
  const location = useLocation();
  const [path = '', search = ''] = location.split('?');
  const can = (p: OperatorPermission) => session.permissions.includes(p);
  const pages = pagesFor(can);
  const home = pages[0]?.path ?? '';
  const [section = home, id] = path.replace(/\/+$/, '').split('/').slice(2).map(decodeURIComponent);
  const current = pages.find((p) => p.path === section);
  let body: ReactNode;
  if (current && id && current.detail) body = current.detail({ can, search, id });
  else if (current && !id) body = current.render({ can, search });
  else body = <PageTitle title={t('dash.notFoundTitle')}>{t('dash.notFound')}</PageTitle>;
  return (
    <>
      <a className="skip-link" href="#main">
        {t('dash.skip')}
      </a>
      <header className="topbar">
        <Link to={`/operator/${home}`} className="brand">
          {t('operator.brand')}
        </Link>
        <span className="spacer" />
        <span className="hint">{t('operator.signedInAs', { email: session.email, role: t('operator.roleName', { role: session.role }) })}</span>
        <LanguageSwitch value={language} onChange={onLanguage} />
        <button type="button" className="secondary" onClick={onSignOut}>
          {t('operator.signOut')}
        </button>
      </header>
      <div className="shell">
        <nav className="sidenav" aria-label={t('operator.nav')}>
          <ul>
            {pages.map((p) => (
              <li key={p.path}>
                <Link to={`/operator/${p.path}`} aria-current={section === p.path ? 'page' : undefined}>
                  {t(p.label)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" className="content" tabIndex={-1}>
          {body}
        </main>
      </div>
    </>
  );
}

function Console({ language, onLanguage }: { language: Language; onLanguage: (l: Language) => void }) {
  const { t } = useI18n();
  const [session, setSession] = useState<OperatorSession | null | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const signedIn = (s: OperatorSession | null) => {
    setCsrfToken(s?.csrfToken ?? '');
    setSession(s);
  };
  useEffect(() => {
    onSessionLost(() => signedIn(null));
    api<OperatorSession>('GET', '/session').then(signedIn, (err: unknown) => {
      if (!(err instanceof ApiProblem && err.code === 'session_required')) setError(err);
      signedIn(null);
    });
  }, []);
  if (session === undefined) return <p role="status">{t('dash.loading')}</p>;
  if (session === null) {
    return (
      <>
        <OperatorError error={error} />
        <SignIn language={language} onLanguage={onLanguage} onSignedIn={signedIn} />
      </>
    );
  }
  if (session.totpEnrolmentRequired) return <Enrol language={language} onLanguage={onLanguage} onDone={signedIn} />;
  return (
    <Shell
      session={session}
      language={language}
      onLanguage={onLanguage}
      onSignOut={() => {
        void api('POST', '/logout').finally(() => {
          signedIn(null);
          navigate('/operator', { replace: true });
        });
      }}
    />
  );
}

export function OperatorApp() {
  const [language, setLanguage] = useState<Language>(() => chooseLanguage({ requested: browserLanguages() }).language);
  useDocumentLanguage(language);
  return (
    <DashboardIntl choice={chooseLanguage({ saved: language })}>
      <Console language={language} onLanguage={setLanguage} />
    </DashboardIntl>
  );
}
