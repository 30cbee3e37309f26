import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { type Language, LANGUAGE_NAMES, LANGUAGES } from '@caisse/intl';
import { type MessageId, useI18n } from '../shared/i18n.tsx';
import { ApiProblem } from './api.ts';

/** The page's heading: sets the document title and takes focus after a navigation, for screen readers. */
export function PageTitle({ children, title }: { children: ReactNode; title: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const { t } = useI18n();
  const docTitle = t('dash.docTitle', { title });
  useEffect(() => {
    document.title = docTitle;
    if (document.activeElement && document.activeElement !== document.body) ref.current?.focus();
  }, [docTitle]);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
}

/** The errors the dashboard words itself; any other says its code. The API's `detail` (English) is never shown. */
const ERROR_TEXTS: Record<string, MessageId> = {
  connection_error: 'error.connection',
  invalid_credentials: 'error.invalidCredentials',
  session_required: 'error.sessionRequired',
  csrf_token_invalid: 'error.csrf',
  totp_code_invalid: 'error.totpCodeInvalid',
  totp_code_reused: 'error.totpCodeReused',
  login_challenge_invalid: 'error.loginChallengeInvalid',
  totp_required: 'error.totpRequired',
  reset_token_invalid: 'error.resetTokenInvalid',
  otp_incorrect: 'error.totpConfirmIncorrect',
  permission_denied: 'error.permissionDenied',
  last_owner: 'error.lastOwner',
  password_weak: 'error.passwordWeak',
  merchant_not_approved: 'error.merchantNotApproved',
  document_invalid: 'error.documentInvalid',
  verification_link_invalid: 'error.verificationLinkInvalid',
  validation_error: 'error.api.validationError',
  parameter_unknown: 'error.api.parameterUnknown',
  parameter_missing: 'error.api.parameterMissing',
  amount_invalid: 'error.api.amountInvalid',
  currency_unsupported: 'error.api.currencyUnsupported',
  metadata_invalid: 'error.api.metadataInvalid',
  otp_expired: 'error.api.otpExpired',
  phone_invalid: 'error.api.phoneInvalid',
  url_invalid: 'error.api.urlInvalid',
  provider_unsupported: 'error.api.providerUnsupported',
  destination_unsupported: 'error.api.destinationUnsupported',
  amount_out_of_bounds: 'error.api.amountOutOfBounds',
  description_invalid: 'error.api.descriptionInvalid',
  return_url_invalid: 'error.api.returnUrlInvalid',
  not_found: 'error.api.notFound',
  invitation_not_found: 'error.api.invitationNotFound',
  payload_too_large: 'error.api.payloadTooLarge',
  intent_state_invalid: 'error.api.intentStateInvalid',
  intent_expired: 'error.api.intentExpired',
  refund_unsupported: 'error.api.refundUnsupported',
  refund_exceeds_amount: 'error.api.refundExceedsAmount',
  already_exists: 'error.api.alreadyExists',
  endpoint_disabled: 'error.api.endpointDisabled',
  balance_insufficient: 'error.api.balanceInsufficient',
  payout_state_invalid: 'error.api.payoutStateInvalid',
  totp_state_invalid: 'error.api.totpStateInvalid',
  profile_state_invalid: 'error.api.profileStateInvalid',
  invitation_used: 'error.api.invitationUsed',
  invitation_expired: 'error.api.invitationExpired',
  invitation_revoked: 'error.api.invitationRevoked',
  limit_exceeded: 'error.api.limitExceeded',
  email_missing: 'error.api.emailMissing',
  email_not_verified: 'error.api.emailNotVerified',
  merchant_frozen: 'error.api.merchantFrozen',
  rate_limited: 'error.api.rateLimited',
  login_locked: 'error.api.loginLocked',
  idempotency_request_in_progress: 'error.api.idempotencyRequestInProgress',
  provider_unavailable: 'error.api.providerUnavailable',
  unavailable: 'error.api.unavailable',
  internal_error: 'error.api.internalError',
  origin_not_allowed: 'error.api.originNotAllowed',
};

/** `texts`: a page's or an app's own wording of some codes, over the dashboard's. */
/**
 * A form's refusal takes the focus when it appears (or changes), so that a keyboard or screen
 * reader user who pressed the button lands on what went wrong rather than staying on the button.
 */
export function useFocusOnError<T extends HTMLElement>(error: unknown, enabled = true) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (enabled && error) ref.current?.focus();
  }, [error, enabled]);
  return ref;
}

export function ErrorNotice({ error, texts, focus = false }: { error: unknown; texts?: Readonly<Record<string, MessageId>>; focus?: boolean }) {
  const { t } = useI18n();
  const ref = useFocusOnError<HTMLDivElement>(error, focus);
  if (!error) return null;
  let text = t('error.unknown');
  if (error instanceof ApiProblem) {
    const known = texts?.[error.code] ?? ERROR_TEXTS[error.code];
    text = known ? t(known) : t('error.refused', { code: error.code });
  }
  // A page's own check (two passwords differ…) carries the page's text; an API problem never its detail.
  else if (error instanceof Error) text = error.message;
  return (
    <div className="notice error" role="alert" ref={ref} tabIndex={focus ? -1 : undefined}>
      {text}
    </div>
  );
}

/** A polite live region: announces what just happened without moving focus. */
export function StatusNotice({ children, tone = 'success' }: { children: ReactNode; tone?: 'success' | 'info' | 'warning' }) {
  return (
    <div className={`notice ${tone}`} role="status">
      {children}
    </div>
  );
}

const TONES: Record<string, string> = {
  SUCCEEDED: 'ok',
  PAID: 'ok',
  available: 'ok',
  succeeded: 'ok',
  active: 'ok',
  enabled: 'ok',
  PENDING: 'info',
  REVIEW: 'warn',
  pending: 'info',
  PROCESSING: 'info',
  FAILED: 'bad',
  failed: 'bad',
  revoked: 'bad',
  disabled: 'bad',
  EXPIRED: 'warn',
  expired: 'warn',
  expiring: 'warn',
  CANCELED: 'warn',
  PARTIALLY_REFUNDED: 'warn',
  REFUNDED: 'warn',
};

/** Statuses in words: payments, top-ups, charges and payouts (upper and lower case), balance lines, deliveries, keys, endpoints. */
const STATUS_TEXTS: Record<string, MessageId> = {
  PENDING: 'status.pending',
  pending: 'status.pending',
  PROCESSING: 'status.processing',
  SUCCEEDED: 'status.succeeded',
  succeeded: 'status.succeeded',
  PAID: 'status.paid',
  REVIEW: 'status.review',
  available: 'status.available',
  FAILED: 'status.failed',
  failed: 'status.failed',
  EXPIRED: 'status.expired',
  expired: 'status.expired',
  CANCELED: 'status.canceled',
  PARTIALLY_REFUNDED: 'status.partiallyRefunded',
  REFUNDED: 'status.refunded',
  active: 'status.active',
  revoked: 'status.revoked',
  enabled: 'status.enabled',
  disabled: 'status.disabled',
};

/** A status in words, in the page's language (the value itself when it has none). */
export function useStatusText() {
  const { t } = useI18n();
  return (value: string) => (STATUS_TEXTS[value] ? t(STATUS_TEXTS[value] as MessageId) : value.replace(/_/g, ' ').toLowerCase());
}

export function Badge({ value, label }: { value: string; label?: string }) {
  const statusText = useStatusText();
  return <span className={`badge ${TONES[value] ?? ''}`}>{label ?? statusText(value)}</span>;
}

/** A table that scrolls sideways on small screens; focusable so keyboard users can scroll it too. */
export function TableWrap({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** A secret shown once, with a copy button. */
/** "Download CSV" with its hint: a plain link, so the browser downloads the file with the session cookie (a GET needs no CSRF token). */
export function CsvDownload({ href, label, hint }: { href: string; label: string; hint: string }) {
  const hintId = useId();
  return (
    <div className="actions">
      <a className="button secondary" href={href} download aria-describedby={hintId}>
        {label}
      </a>
      <span className="hint" id={hintId}>
        {hint}
      </span>
    </div>
  );
}

export function SecretField({ label, value, hint }: { label: string; value: string; hint?: string }) {
  const id = useId();
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {hint && <span className="hint">{hint}</span>}
      </label>
      <div className="secret-box">
        <input id={id} readOnly value={value} onFocus={(e) => e.currentTarget.select()} spellCheck={false} />
        <button
          type="button"
          className="secondary"
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          {copied ? t('dash.copied') : t('dash.copy')}
        </button>
      </div>
    </div>
  );
}

/** A button that asks once more inline before doing something that cannot be undone. */
export function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
  disabled,
  name,
}: {
  label: string;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
  name?: string;
}) {
  const [asking, setAsking] = useState(false);
  const { t } = useI18n();
  if (!asking) {
    return (
      <button type="button" className="danger" onClick={() => setAsking(true)} disabled={disabled} aria-label={name}>
        {label}
      </button>
    );
  }
  return (
    <span className="actions" style={{ marginTop: 0 }}>
      <button
        type="button"
        className="danger"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
        autoFocus
      >
        {confirmLabel}
      </button>
      <button type="button" className="secondary" onClick={() => setAsking(false)}>
        {t('dash.keepIt')}
      </button>
    </span>
  );
}

/** The language switch: each language named in itself. */
export function LanguageSwitch({ value, onChange }: { value: Language; onChange: (language: Language) => void }) {
  const { t } = useI18n();
  const id = useId();
  return (
    <span className="language-switch">
      <label htmlFor={id} className="visually-hidden">
        {t('dash.language')}
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as Language)}>
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </span>
  );
}
