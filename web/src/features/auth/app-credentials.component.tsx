import { Check, Copy, KeyRound, Smartphone, Trash2 } from 'lucide-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AppCredential } from '@encore/common/auth.contract';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { useLanguage, useT } from '../../lib/i18n/i18n.store';
import { formatShortDate } from '../../lib/short-date.format';
import {
  appCredentialsQueryKey,
  createAppCredential,
  fetchAppCredentials,
  revokeAppCredential,
  type AppCredentialKind,
  type CreatedAppCredential,
} from './app-credentials.api';

/** The texts that differ between the two kinds. */
const TEXTS = {
  'app-password': {
    heading: 'appPasswordsHeading',
    hint: 'appPasswordsHint',
    placeholder: 'appPasswordNamePlaceholder',
    create: 'appPasswordCreate',
    created: 'appPasswordCreated',
    empty: 'appPasswordsEmpty',
    createFailed: 'appPasswordCreateFailed',
  },
  'api-key': {
    heading: 'apiKeysHeading',
    hint: 'apiKeysHint',
    placeholder: 'apiKeyNamePlaceholder',
    create: 'apiKeyCreate',
    created: 'apiKeyCreated',
    empty: 'apiKeysEmpty',
    createFailed: 'apiKeyCreateFailed',
  },
} as const;

/**
 * The profile page's "Apps": how Subsonic clients connect, and the app passwords and API keys
 * they sign in with (made, named, listed and revoked here; a secret is shown once).
 */
export function AppsSection() {
  const t = useT();
  return (
    <div className="flex flex-col gap-5">
      <p className="text-sm leading-relaxed text-muted">{t('profileAppsBody')}</p>
      <p className="flex flex-wrap items-baseline gap-2 text-sm">
        <span className="text-muted">{t('profileAppsServer')}</span>
        <bdi className="font-mono">{window.location.origin}</bdi>
      </p>
      <CredentialList kind="app-password" />
      <CredentialList kind="api-key" />
    </div>
  );
}

function CredentialList({ kind }: { kind: AppCredentialKind }) {
  const t = useT();
  const texts = TEXTS[kind];
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<CreatedAppCredential | null>(null);
  const list = useQuery({ queryKey: appCredentialsQueryKey(kind), queryFn: ({ signal }) => fetchAppCredentials(kind, signal) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: appCredentialsQueryKey(kind) });

  return (
    <section className="flex flex-col gap-3 border-t border-white/10 pt-4" aria-labelledby={`${kind}-heading`}>
      <div className="flex flex-col gap-1">
        <h3 id={`${kind}-heading`} className="flex items-center gap-2 text-sm font-semibold [&_svg]:size-4 [&_svg]:text-fuchsia-300">
          {kind === 'api-key' ? <KeyRound aria-hidden /> : <Smartphone aria-hidden />}
          {t(texts.heading)}
        </h3>
        <p className="text-sm leading-relaxed text-muted">{t(texts.hint)}</p>
      </div>
      {created ? (
        <ShownOnce kind={kind} created={created} onDone={() => setCreated(null)} />
      ) : (
        <CreateForm
          kind={kind}
          onCreated={(credential) => {
            setCreated(credential);
            void refresh();
          }}
        />
      )}
      {list.isPending ? (
        <Spinner />
      ) : list.isError ? (
        <p role="alert" className="text-sm text-danger">
          {t('appCredentialsLoadFailed')}
        </p>
      ) : list.data.length === 0 ? (
        <p className="text-sm text-subtle">{t(texts.empty)}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-white/10" aria-label={t(texts.heading)}>
          {list.data.map((credential) => (
            <CredentialRow key={credential.id} kind={kind} credential={credential} onRevoked={() => void refresh()} />
          ))}
        </ul>
      )}
    </section>
  );
}

function CreateForm({ kind, onCreated }: { kind: AppCredentialKind; onCreated: (created: CreatedAppCredential) => void }) {
  const t = useT();
  const texts = TEXTS[kind];
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (wanted: string) => createAppCredential(kind, wanted),
    meta: { errorToast: { fallback: t(texts.createFailed) } },
    onSuccess: (credential) => {
      setName('');
      onCreated(credential);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    if (!name.trim()) {
      setError(t('appCredentialNameRequired'));
      return;
    }
    create.mutate(name.trim());
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-start" noValidate aria-busy={create.isPending}>
      <TextField
        id={`${kind}-name`}
        className="flex-1"
        label={t('appCredentialName')}
        placeholder={t(texts.placeholder)}
        value={name}
        maxLength={100}
        autoComplete="off"
        error={error}
        onChange={(event) => {
          setName(event.target.value);
          setError(null);
        }}
      />
      <Button type="submit" variant="secondary" className="sm:mt-7" disabled={create.isPending}>
        {create.isPending ? <Spinner /> : null}
        {t(texts.create)}
      </Button>
    </form>
  );
}

/** The new secret, once: with a copy button and the warning that it is not shown again. */
function ShownOnce({ kind, created, onDone }: { kind: AppCredentialKind; created: CreatedAppCredential; onDone: () => void }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied(true);
    } catch {
      // Without clipboard access the secret stays on screen, selectable.
    }
  };
  return (
    <div role="status" className="flex flex-col gap-3 rounded-xl border border-accent/30 bg-accent/10 p-4">
      <p className="text-sm font-semibold">{t(TEXTS[kind].created, { name: created.name })}</p>
      <div className="flex flex-wrap items-center gap-2">
        <code dir="ltr" className="min-w-0 rounded-lg bg-black/30 px-3 py-2 font-mono text-base break-all select-all" data-testid={`${kind}-secret`}>
          {created.secret}
        </code>
        <Button size="sm" variant="secondary" onClick={() => void copy()}>
          {copied ? <Check aria-hidden className="size-4" /> : <Copy aria-hidden className="size-4" />}
          {copied ? t('appCredentialCopied') : t('appCredentialCopy')}
        </Button>
      </div>
      <p className="text-sm text-muted">{t('appCredentialShownOnce')}</p>
      <Button size="sm" className="self-end" onClick={onDone}>
        {t('appCredentialDone')}
      </Button>
    </div>
  );
}

function CredentialRow({ kind, credential, onRevoked }: { kind: AppCredentialKind; credential: AppCredential; onRevoked: () => void }) {
  const t = useT();
  const language = useLanguage();
  const [confirming, setConfirming] = useState(false);
  const revoke = useMutation({
    mutationFn: () => revokeAppCredential(kind, credential.id),
    meta: { errorToast: { fallback: t('appCredentialRevokeFailed') } },
    onSuccess: () => {
      toast.success(t('appCredentialRevoked', { name: credential.name }));
      onRevoked();
    },
  });
  const used = credential.lastUsedAt ? t('appCredentialLastUsed', { date: formatShortDate(credential.lastUsedAt, language) }) : t('appCredentialNeverUsed');
  return (
    <li className="flex flex-col gap-2 py-3">
      <div className="flex items-center justify-between gap-3">
        <div className="flex min-w-0 flex-col">
          <bdi className="truncate font-medium">{credential.name}</bdi>
          <span className="text-xs text-subtle">
            {t('appCredentialCreatedOn', { date: formatShortDate(credential.createdAt, language) })} · {used}
          </span>
        </div>
        {confirming ? null : (
          <Button size="sm" variant="ghost" aria-label={t('appCredentialRevokeLabel', { name: credential.name })} onClick={() => setConfirming(true)}>
            <Trash2 aria-hidden className="size-4" />
            {t('appCredentialRevoke')}
          </Button>
        )}
      </div>
      {confirming ? (
        <div className="flex flex-wrap items-center justify-end gap-2">
          <p className="me-auto text-sm text-muted">{t('appCredentialRevokeConfirm', { name: credential.name })}</p>
          <Button size="sm" variant="ghost" onClick={() => setConfirming(false)} disabled={revoke.isPending}>
            {t('cancel')}
          </Button>
          <Button size="sm" variant="danger" onClick={() => revoke.mutate()} disabled={revoke.isPending}>
            {revoke.isPending ? <Spinner /> : null}
            {t('appCredentialRevoke')}
          </Button>
        </div>
      ) : null}
    </li>
  );
}
