import { chooseLanguage, type Language } from '@caisse/intl';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { browserLanguages } from '@caisse/react';
import { DashboardIntl, type MessageId, useDocumentLanguage, useI18n } from '../shared/i18n.tsx';
import { api, ApiProblem, onSessionLost, setCsrfToken } from '../dashboard/api.ts';
import { CenterPanel, useSubmit } from '../dashboard/pages/Login.tsx';
import { Link, navigate, useLocation } from '../dashboard/router.tsx';
import { LanguageSwitch, PageTitle, SecretField, StatusNotice, TableWrap } from '../dashboard/ui.tsx';
import { useOperatorQuery } from './queries.ts';
import type {
  AuditList,
  InvitedOperator,
  LedgerVerification,
  MerchantList,
  MerchantProfile,
  Money,
  OperatorList,
  OperatorMerchant,
  OperatorPermission,
  OperatorSession,
  SubmittedProfiles,
  TotpEnrolment,
} from './types.ts';

/**
 * The operator console at /operator (issue 34): sign-in with TOTP (enrolled at the first
 * sign-in), merchants and their freeze, the platform's money, the operator audit log, operators.
 * It talks to /operator/api with its own session cookie; the server checks every permission, the
 * pages only hide what the role cannot use.
 */

/** The errors the console words itself; any other shows the API's `detail`. */
const ERROR_TEXTS: Record<string, MessageId> = {
  connection_error: 'error.connection',
  invalid_credentials: 'error.invalidCredentials',
  session_required: 'error.sessionRequired',
  csrf_token_invalid: 'error.csrf',
  totp_code_invalid: 'operator.error.code',
  totp_code_reused: 'error.totpCodeReused',
  totp_code_required: 'operator.error.codeRequired',
  otp_incorrect: 'error.totpConfirmIncorrect',
  permission_denied: 'operator.error.permission',
};

function OperatorError({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (!error) return null;
  let text = t('error.unknown');
  if (error instanceof ApiProblem) {
    const known = ERROR_TEXTS[error.code];
    text = known ? t(known) : error.message;
  } else if (error instanceof Error) text = error.message;
  return (
    <div className="notice error" role="alert">
      {text}
    </div>
  );
}

function Field({ label, hint, children }: { label: string; hint?: string; children: (id: string) => ReactNode }) {
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
function Table({ label, head, children }: { label: string; head: string[]; children: ReactNode }) {
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

function SignIn({ onSignedIn, language, onLanguage }: { onSignedIn: (s: OperatorSession) => void; language: Language; onLanguage: (l: Language) => void }) {
  const { t } = useI18n();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const { busy, error, run } = useSubmit();
  useEffect(() => {
    document.title = t('operator.signInDocTitle');
  }, [t]);
  function submit(e: FormEvent) {
    e.preventDefault();
    void run(async () => onSignedIn(await api<OperatorSession>('POST', '/login', { email, password, ...(code.trim() ? { code: code.trim() } : {}) })));
  }
  return (
    <CenterPanel title={t('operator.signInTitle')} language={language} onLanguage={onLanguage}>
      <p>{t('operator.signInIntro')}</p>
      <OperatorError error={error} />
      <form onSubmit={submit}>
        <Field label={t('login.email')}>
          {(id) => <input id={id} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />}
        </Field>
        <Field label={t('login.password')}>
          {(id) => <input id={id} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />}
        </Field>
        <Field label={t('login.code')} hint={t('operator.codeHint')}>
          {(id) => <input id={id} inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} />}
        </Field>
        <button type="submit" disabled={busy}>
          {t('login.signIn')}
        </button>
      </form>
    </CenterPanel>
  );
}

/** The first sign-in: nothing opens before an authenticator app is enrolled. */
function Enrol({ onDone, language, onLanguage }: { onDone: (s: OperatorSession) => void; language: Language; onLanguage: (l: Language) => void }) {
  const { t } = useI18n();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [code, setCode] = useState('');
  const { busy, error, run } = useSubmit();
  return (
    <CenterPanel title={t('operator.enrolTitle')} language={language} onLanguage={onLanguage}>
      <p>{t('operator.enrolIntro')}</p>
      <OperatorError error={error} />
      {enrolment === null ? (
        <button type="button" disabled={busy} onClick={() => void run(async () => setEnrolment(await api<TotpEnrolment>('POST', '/totp', {})))}>
          {t('operator.enrolStart')}
        </button>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => onDone(await api<OperatorSession>('POST', '/totp/confirm', { code: code.trim() })));
          }}
        >
          <SecretField label={t('operator.enrolSecret')} value={enrolment.secret} hint={t('operator.enrolSecretHint')} />
          <SecretField label={t('operator.enrolUri')} value={enrolment.uri} />
          <Field label={t('login.code')}>
            {(id) => <input id={id} inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />}
          </Field>
          <button type="submit" disabled={busy}>
            {t('operator.enrolConfirm')}
          </button>
        </form>
      )}
    </CenterPanel>
  );
}

function Merchants({ search }: { search: string }) {
  const { t, dateTime } = useI18n();
  const initial = new URLSearchParams(search).get('q') ?? '';
  const [text, setText] = useState(initial);
  const list = useOperatorQuery<MerchantList>(['merchants', initial], `/merchants?${new URLSearchParams({ q: initial }).toString()}`);
  return (
    <>
      <PageTitle title={t('operator.merchantsTitle')}>{t('operator.merchantsTitle')}</PageTitle>
      <form
        role="search"
        className="form-row"
        onSubmit={(e) => {
          e.preventDefault();
          navigate(`/operator/merchants?${new URLSearchParams({ q: text.trim() }).toString()}`);
        }}
      >
        <Field label={t('operator.searchLabel')} hint={t('operator.searchHint')}>
          {(id) => <input id={id} type="search" value={text} onChange={(e) => setText(e.target.value)} />}
        </Field>
        <div className="actions">
          <button type="submit">{t('operator.search')}</button>
        </div>
      </form>
      <OperatorError error={list.error} />
      {list.loading && !list.data ? <p role="status">{t('dash.loading')}</p> : null}
      {list.data && list.data.data.length === 0 ? <p>{t('operator.noMerchants')}</p> : null}
      {list.data && list.data.data.length > 0 ? (
        <Table
          label={t('operator.merchantsTitle')}
          head={[t('operator.name'), t('operator.id'), t('login.email'), t('operator.country'), t('operator.state'), t('operator.created')]}
        >
          {list.data.data.map((m) => (
            <tr key={m.id}>
              <td>
                <Link to={`/operator/merchants/${encodeURIComponent(m.id)}`}>{m.name}</Link>
              </td>
              <td className="mono">{m.id}</td>
              <td>{m.email ?? '—'}</td>
              <td>{m.country}</td>
              <td>
                <span className={`badge ${m.frozen ? 'bad' : 'ok'}`}>{m.frozen ? t('operator.frozen') : t('operator.active')}</span>
              </td>
              <td>{dateTime(m.createdAt)}</td>
            </tr>
          ))}
        </Table>
      ) : null}
    </>
  );
}

function kindText(t: (id: MessageId) => string, kind: string): string {
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

function MerchantPage({ id, can }: { id: string; can: (p: OperatorPermission) => boolean }) {
  const { t, money, dateTime } = useI18n();
  const loaded = useOperatorQuery<OperatorMerchant>(['merchant', id], `/merchants/${encodeURIComponent(id)}`);
  const [reason, setReason] = useState('');
  const [done, setDone] = useState<string | null>(null);
  // The freeze's answer is the merchant as it is now: shown at once, no second request.
  const [changed, setChanged] = useState<OperatorMerchant | null>(null);
  const { busy, error, run } = useSubmit();
  const m = changed ?? loaded.data;
  if (!m) return loaded.error ? <OperatorError error={loaded.error} /> : <p role="status">{t('dash.loading')}</p>;
  const fees = m.fees.bps === null ? t('operator.default') : `${m.fees.bps / 100} %`;
  const act = (path: 'freeze' | 'unfreeze') =>
    void run(async () => {
      setChanged(await api<OperatorMerchant>('POST', `/merchants/${encodeURIComponent(id)}/${path}`, { reason: reason.trim() }));
      setReason('');
      setDone(path === 'freeze' ? t('operator.frozenDone') : t('operator.unfrozenDone'));
    });
  return (
    <>
      <PageTitle title={m.name}>{m.name}</PageTitle>
      <p>
        <span className={`badge ${m.frozen ? 'bad' : 'ok'}`}>{m.frozen ? t('operator.frozen') : t('operator.active')}</span>{' '}
        {m.frozen ? t('operator.frozenSince', { date: dateTime(m.frozen.at), reason: m.frozen.reason }) : null}
      </p>
      <dl className="summary">
        <dt>{t('operator.id')}</dt>
        <dd className="mono">{m.id}</dd>
        <dt>{t('login.email')}</dt>
        <dd>{m.email ?? '—'}</dd>
        <dt>{t('operator.country')}</dt>
        <dd>{m.country}</dd>
        <dt>{t('operator.fees')}</dt>
        <dd>{fees}</dd>
        <dt>{t('operator.settlementDelay')}</dt>
        <dd>{m.settlementDelayDays === null ? t('operator.default') : t('operator.days', { days: m.settlementDelayDays })}</dd>
        <dt>{t('operator.keys')}</dt>
        <dd>{t('operator.keysCount', { test: m.keys.test, live: m.keys.live })}</dd>
      </dl>
      <h2>{t('operator.balances')}</h2>
      {m.balances.length === 0 ? (
        <p>{t('operator.noBalances')}</p>
      ) : (
        <Table label={t('operator.balances')} head={[t('operator.mode'), t('operator.account'), t('operator.amount')]}>
          {m.balances.map((b) => (
            <tr key={`${b.mode}-${b.kind}-${b.currency}`}>
              <td>{b.mode === 'live' ? t('dash.liveMode') : t('dash.testMode')}</td>
              <td>{kindText(t, b.kind)}</td>
              <td>{money(b.amount, b.currency)}</td>
            </tr>
          ))}
        </Table>
      )}
      {can('merchants:freeze') ? (
        <section aria-labelledby="freeze-title">
          <h2 id="freeze-title">{m.frozen ? t('operator.unfreezeTitle') : t('operator.freezeTitle')}</h2>
          <p>{m.frozen ? t('operator.unfreezeIntro') : t('operator.freezeIntro')}</p>
          {done ? <StatusNotice>{done}</StatusNotice> : null}
          <OperatorError error={error} />
          <form
            onSubmit={(e) => {
              e.preventDefault();
              act(m.frozen ? 'unfreeze' : 'freeze');
            }}
          >
            <Field label={t('operator.reason')}>
              {(fid) => <textarea id={fid} required maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />}
            </Field>
            <button type="submit" className={m.frozen ? undefined : 'danger'} disabled={busy}>
              {m.frozen ? t('operator.unfreeze') : t('operator.freeze')}
            </button>
          </form>
        </section>
      ) : null}
      {can('merchants:review') ? <ProfileReview id={id} /> : null}
    </>
  );
}

/** Business profiles waiting for review, oldest first. */
function Profiles() {
  const { t, dateTime } = useI18n();
  const list = useOperatorQuery<SubmittedProfiles>(['profiles'], '/profiles');
  return (
    <>
      <PageTitle title={t('operator.profilesTitle')}>{t('operator.profilesTitle')}</PageTitle>
      <OperatorError error={list.error} />
      {list.loading && !list.data ? <p role="status">{t('dash.loading')}</p> : null}
      {list.data && list.data.data.length === 0 ? <p>{t('operator.noProfiles')}</p> : null}
      {list.data && list.data.data.length > 0 ? (
        <Table label={t('operator.profilesTitle')} head={[t('operator.name'), t('operator.legalName'), t('operator.country'), t('operator.submitted')]}>
          {list.data.data.map((p) => (
            <tr key={p.merchantId}>
              <td>
                <Link to={`/operator/merchants/${encodeURIComponent(p.merchantId)}`}>{p.merchantName}</Link>
              </td>
              <td>{p.legalName}</td>
              <td>{p.country}</td>
              <td>{p.submittedAt ? dateTime(p.submittedAt) : '—'}</td>
            </tr>
          ))}
        </Table>
      ) : null}
    </>
  );
}

/** A merchant's business profile, its identity document, and the approval or rejection of a submitted one. */
function ProfileReview({ id }: { id: string }) {
  const { t } = useI18n();
  const loaded = useOperatorQuery<MerchantProfile>(['profile', id], `/merchants/${encodeURIComponent(id)}/profile`);
  const [changed, setChanged] = useState<MerchantProfile | null>(null);
  const [reason, setReason] = useState('');
  const { busy, error, run } = useSubmit();
  const p = changed ?? loaded.data;
  if (!p) return <OperatorError error={loaded.error} />;
  const review = (decision: 'approve' | 'reject') =>
    void run(async () => {
      setChanged(
        await api<MerchantProfile>('POST', `/merchants/${encodeURIComponent(id)}/profile/${decision}`, decision === 'reject' ? { reason: reason.trim() } : {}),
      );
      setReason('');
    });
  const rows: [string, string][] = [
    [t('operator.legalName'), p.details.legalName],
    [t('operator.tradeName'), p.details.tradeName],
    [t('operator.registrationNumber'), p.details.registrationNumber],
    [t('operator.taxNumber', { name: p.taxNumberName }), p.details.taxNumber],
    [t('operator.address'), p.details.address],
    [t('operator.activity'), p.details.activity],
    [t('operator.website'), p.details.website],
    [t('operator.ownerName'), p.details.ownerName],
  ];
  return (
    <section aria-labelledby="profile-title">
      <h2 id="profile-title">{t('operator.profileTitle')}</h2>
      <p>
        <span className={`badge ${p.state === 'approved' ? 'ok' : p.state === 'rejected' ? 'bad' : ''}`}>{t('operator.profileState', { state: p.state })}</span>
        {p.rejectionReason ? ` ${t('operator.rejectedBecause', { reason: p.rejectionReason })}` : null}
      </p>
      <dl className="summary">
        {rows.map(([label, value]) => (
          <div key={label} style={{ display: 'contents' }}>
            <dt>{label}</dt>
            <dd>{value || '—'}</dd>
          </div>
        ))}
      </dl>
      {p.document ? (
        <p>
          <a href={`/operator/api/merchants/${encodeURIComponent(id)}/profile/document`} target="_blank" rel="noreferrer">
            {t('operator.openDocument', { type: p.document.contentType })}
          </a>
        </p>
      ) : null}
      {p.state === 'submitted' ? (
        <>
          <OperatorError error={error} />
          <div className="actions">
            <button type="button" disabled={busy} onClick={() => review('approve')}>
              {t('operator.approve')}
            </button>
          </div>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              review('reject');
            }}
          >
            <Field label={t('operator.rejectReason')}>
              {(fid) => <textarea id={fid} required maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />}
            </Field>
            <button type="submit" className="danger" disabled={busy}>
              {t('operator.reject')}
            </button>
          </form>
        </>
      ) : null}
    </section>
  );
}

function MoneyPage({ can }: { can: (p: OperatorPermission) => boolean }) {
  const { t, money } = useI18n();
  const loaded = useOperatorQuery<Money>(['money'], '/money');
  const [report, setReport] = useState<LedgerVerification | null>(null);
  const { busy, error, run } = useSubmit();
  return (
    <>
      <PageTitle title={t('operator.moneyTitle')}>{t('operator.moneyTitle')}</PageTitle>
      <p>{t('operator.moneyIntro')}</p>
      <OperatorError error={loaded.error} />
      {loaded.data && loaded.data.totals.length === 0 ? <p>{t('operator.noBalances')}</p> : null}
      {loaded.data && loaded.data.totals.length > 0 ? (
        <Table
          label={t('operator.moneyTitle')}
          head={[t('operator.mode'), t('operator.currency'), t('operator.account'), t('operator.amount'), t('operator.accounts')]}
        >
          {loaded.data.totals.map((r) => (
            <tr key={`${r.mode}-${r.currency}-${r.kind}`}>
              <td>{r.mode === 'live' ? t('dash.liveMode') : t('dash.testMode')}</td>
              <td>{r.currency}</td>
              <td>{kindText(t, r.kind)}</td>
              <td>{money(r.amount, r.currency)}</td>
              <td>{r.accounts}</td>
            </tr>
          ))}
        </Table>
      ) : null}
      {can('ledger:verify') ? (
        <section aria-labelledby="verify-title">
          <h2 id="verify-title">{t('operator.verifyTitle')}</h2>
          <OperatorError error={error} />
          {report ? (
            <StatusNotice tone={report.ok ? 'success' : 'warning'}>
              {report.ok
                ? t('operator.verifyOk', { accounts: report.accounts, transfers: report.transfers })
                : t('operator.verifyDifferences', { count: report.differences.length })}
            </StatusNotice>
          ) : null}
          {report && !report.ok ? (
            <ul>
              {report.differences.map((d) => (
                <li key={`${d.type}-${d.id}`}>
                  <code>{d.type}</code> {d.id}: {d.detail}
                </li>
              ))}
            </ul>
          ) : null}
          <button type="button" disabled={busy} onClick={() => void run(async () => setReport(await api<LedgerVerification>('POST', '/ledger/verify', {})))}>
            {t('operator.verifyRun')}
          </button>
        </section>
      ) : null}
    </>
  );
}

function Audit() {
  const { t, dateTime } = useI18n();
  const loaded = useOperatorQuery<AuditList>(['audit'], '/audit?limit=100');
  const show = (v: unknown) => (v === null || v === undefined ? '—' : <code>{JSON.stringify(v)}</code>);
  return (
    <>
      <PageTitle title={t('operator.auditTitle')}>{t('operator.auditTitle')}</PageTitle>
      <OperatorError error={loaded.error} />
      {loaded.data && loaded.data.data.length === 0 ? <p>{t('audit.empty')}</p> : null}
      {loaded.data && loaded.data.data.length > 0 ? (
        <Table
          label={t('operator.auditTitle')}
          head={[t('audit.when'), t('audit.who'), t('audit.action'), t('audit.target'), t('operator.before'), t('operator.after'), t('operator.reason')]}
        >
          {loaded.data.data.map((e) => (
            <tr key={e.id}>
              <td>{dateTime(e.createdAt)}</td>
              <td>{e.actor.email}</td>
              <td>
                <code>{e.action}</code>
              </td>
              <td className="mono">{e.targetId ?? '—'}</td>
              <td>{show(e.before)}</td>
              <td>{show(e.after)}</td>
              <td>{e.reason ?? '—'}</td>
            </tr>
          ))}
        </Table>
      ) : null}
    </>
  );
}

function Operators({ can }: { can: (p: OperatorPermission) => boolean }) {
  const { t, dateTime } = useI18n();
  const loaded = useOperatorQuery<OperatorList>(['operators'], '/operators');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('support');
  const [invited, setInvited] = useState<{ email: string; password: string } | null>(null);
  const { busy, error, run } = useSubmit();
  return (
    <>
      <PageTitle title={t('operator.operatorsTitle')}>{t('operator.operatorsTitle')}</PageTitle>
      <OperatorError error={loaded.error} />
      {loaded.data ? (
        <Table label={t('operator.operatorsTitle')} head={[t('login.email'), t('operator.role'), t('operator.totp'), t('operator.created')]}>
          {loaded.data.data.map((o) => (
            <tr key={o.id}>
              <td>{o.email}</td>
              <td>{o.role}</td>
              <td>{o.totpEnabled ? t('operator.yes') : t('operator.no')}</td>
              <td>{dateTime(o.createdAt)}</td>
            </tr>
          ))}
        </Table>
      ) : null}
      {can('operators:write') ? (
        <section aria-labelledby="invite-title">
          <h2 id="invite-title">{t('operator.inviteTitle')}</h2>
          <OperatorError error={error} />
          {invited ? (
            <SecretField label={t('operator.invitedPassword', { email: invited.email })} value={invited.password} hint={t('operator.invitedHint')} />
          ) : null}
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void run(async () => {
                const made = await api<InvitedOperator>('POST', '/operators', { email: email.trim(), role });
                setInvited({ email: made.email, password: made.password });
                setEmail('');
                loaded.reload();
              });
            }}
          >
            <Field label={t('login.email')}>{(id) => <input id={id} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}</Field>
            <Field label={t('operator.role')}>
              {(id) => (
                <select id={id} value={role} onChange={(e) => setRole(e.target.value)}>
                  {['admin', 'compliance', 'finance', 'support'].map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <button type="submit" disabled={busy}>
              {t('operator.invite')}
            </button>
          </form>
        </section>
      ) : null}
    </>
  );
}

const SECTIONS: { path: string; label: MessageId; needs: OperatorPermission }[] = [
  { path: 'merchants', label: 'operator.merchantsTitle', needs: 'merchants:read' },
  { path: 'profiles', label: 'operator.profilesTitle', needs: 'merchants:review' },
  { path: 'money', label: 'operator.moneyTitle', needs: 'money:read' },
  { path: 'audit', label: 'operator.auditTitle', needs: 'audit:read' },
  { path: 'operators', label: 'operator.operatorsTitle', needs: 'operators:read' },
];

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
  const [section = 'merchants', id] = path.replace(/\/+$/, '').split('/').slice(2).map(decodeURIComponent);
  const can = (p: OperatorPermission) => session.permissions.includes(p);
  let body: ReactNode;
  if (section === 'merchants' && id) body = <MerchantPage key={id} id={id} can={can} />;
  else if (section === 'merchants') body = <Merchants key={search} search={search} />;
  else if (section === 'profiles' && can('merchants:review')) body = <Profiles />;
  else if (section === 'money' && can('money:read')) body = <MoneyPage can={can} />;
  else if (section === 'audit' && can('audit:read')) body = <Audit />;
  else if (section === 'operators' && can('operators:read')) body = <Operators can={can} />;
  else body = <PageTitle title={t('dash.notFoundTitle')}>{t('dash.notFound')}</PageTitle>;
  return (
    <>
      <a className="skip-link" href="#main">
        {t('dash.skip')}
      </a>
      <header className="topbar">
        <Link to="/operator/merchants" className="brand">
          {t('operator.brand')}
        </Link>
        <span className="spacer" />
        <span className="hint">{t('operator.signedInAs', { email: session.email, role: session.role })}</span>
        <LanguageSwitch value={language} onChange={onLanguage} />
        <button type="button" className="secondary" onClick={onSignOut}>
          {t('operator.signOut')}
        </button>
      </header>
      <div className="shell">
        <nav className="sidenav" aria-label={t('operator.nav')}>
          <ul>
            {SECTIONS.filter((s) => can(s.needs)).map((s) => (
              <li key={s.path}>
                <Link to={`/operator/${s.path}`} aria-current={section === s.path ? 'page' : undefined}>
                  {t(s.label)}
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
