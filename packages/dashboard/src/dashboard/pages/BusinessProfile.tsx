import { type FormEvent, useEffect, useState } from 'react';
import { type MessageId, useI18n } from '../../shared/i18n.tsx';
import { useProfile, useSetShortName, useSubmitProfile, useUpdateProfile, useUploadDocument } from '../queries/onboarding.ts';
import type { BusinessProfile as Profile, ProfileDetails } from '../types.ts';
import { ErrorNotice, PageTitle, StatusNotice } from '../ui.tsx';

const FIELDS: { name: keyof ProfileDetails; label: MessageId }[] = [
  { name: 'legalName', label: 'profile.legalName' },
  { name: 'tradeName', label: 'profile.tradeName' },
  { name: 'registrationNumber', label: 'profile.registrationNumber' },
  { name: 'taxNumber', label: 'profile.taxNumber' },
  { name: 'address', label: 'profile.address' },
  { name: 'activity', label: 'profile.activity' },
  { name: 'website', label: 'profile.website' },
  { name: 'ownerName', label: 'profile.ownerName' },
];

const STATES: Record<string, MessageId> = {
  not_submitted: 'profile.state.notSubmitted',
  submitted: 'profile.state.submitted',
  approved: 'profile.state.approved',
  rejected: 'profile.state.rejected',
};

/**
 * The business profile live mode needs: the business's details and the owner's identity document,
 * submitted for the platform operator's review. It changes only before submission or after a rejection.
 */
export function BusinessProfile() {
  const { t } = useI18n();
  const profile = useProfile();
  const update = useUpdateProfile();
  const uploadDocument = useUploadDocument();
  const submit = useSubmitProfile();
  const [draft, setDraft] = useState<ProfileDetails | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const data = profile.data;

  useEffect(() => {
    if (data && draft === null) setDraft(data.details);
  }, [data, draft]);

  if (profile.error) return <ErrorNotice error={profile.error} />;
  if (!data || !draft) return <p role="status">{t('dash.loading')}</p>;
  const editable = data.state === 'not_submitted' || data.state === 'rejected';

  async function send(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      await update.mutateAsync(draft ?? {});
      if (file) await uploadDocument.mutateAsync(file);
      await submit.mutateAsync();
      setFile(null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <PageTitle title={t('profile.title')}>{t('profile.title')}</PageTitle>
      <p>{t('profile.intro')}</p>
      <StatusNotice tone={data.state === 'approved' ? 'success' : data.state === 'rejected' ? 'warning' : 'info'}>
        {t(STATES[data.state] ?? 'profile.state.notSubmitted')}
      </StatusNotice>
      {data.rejectionReason ? <p>{t('profile.rejectionReason', { reason: data.rejectionReason })}</p> : null}
      {!data.emailVerified ? <StatusNotice tone="warning">{t('profile.verifyFirst')}</StatusNotice> : null}
      <ErrorNotice error={error} />
      <form onSubmit={send}>
        <fieldset disabled={!editable || busy}>
          {FIELDS.map((f) => (
            <div className="field" key={f.name}>
              <label htmlFor={`profile-${f.name}`}>{f.name === 'taxNumber' ? t('profile.taxNumberNamed', { name: data.taxNumberName }) : t(f.label)}</label>
              <input id={`profile-${f.name}`} maxLength={300} value={draft[f.name]} onChange={(e) => setDraft({ ...draft, [f.name]: e.target.value })} />
            </div>
          ))}
          <div className="field">
            <label htmlFor="profile-document">{t('profile.document')}</label>
            <input id="profile-document" type="file" accept="application/pdf,image/jpeg,image/png" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
            <span className="hint">
              {data.document ? t('profile.documentOnFile', { type: data.document.contentType, size: data.document.size }) : t('profile.documentHint')}
            </span>
          </div>
          {editable ? (
            <button type="submit" disabled={busy}>
              {t('profile.submit')}
            </button>
          ) : null}
        </fieldset>
      </form>
      <ShortNameForm profile={data} />
    </>
  );
}

/** The rule a refused name broke, in the page's language rather than the bare code. */
const SHORT_NAME_ERRORS = { short_name_invalid: 'profile.shortName.invalid' } as const;

/** The payer-facing short name: editable in any state of the profile (it is not reviewed). */
function ShortNameForm({ profile }: { profile: Profile }) {
  const { t } = useI18n();
  const setShortName = useSetShortName();
  const [name, setName] = useState(profile.shortName.custom ? profile.shortName.name : '');
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);

  async function save(value: string | null) {
    setError(null);
    setSaved(null);
    try {
      const after = await setShortName.mutateAsync(value);
      setName(after.shortName.custom ? after.shortName.name : '');
      setSaved(after.shortName.name);
    } catch (err) {
      setError(err);
    }
  }

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void save(name.trim() === '' ? null : name);
      }}
    >
      <h2>{t('profile.shortName.title')}</h2>
      <ErrorNotice error={error} texts={SHORT_NAME_ERRORS} />
      {saved !== null ? <StatusNotice tone="success">{t('profile.shortName.saved', { name: saved })}</StatusNotice> : null}
      <fieldset disabled={setShortName.isPending}>
        <div className="field">
          <label htmlFor="profile-shortName">{t('profile.shortName.label')}</label>
          <input
            id="profile-shortName"
            value={name}
            placeholder={profile.shortName.default}
            aria-describedby="profile-shortName-hint"
            onChange={(e) => setName(e.target.value)}
          />
          <span className="hint" id="profile-shortName-hint">
            {t('profile.shortName.hint', { default: profile.shortName.default })}
          </span>
        </div>
        <button type="submit">{t('profile.shortName.save')}</button>
        {profile.shortName.custom ? (
          <button type="button" className="secondary" onClick={() => void save(null)}>
            {t('profile.shortName.reset')}
          </button>
        ) : null}
      </fieldset>
    </form>
  );
}
