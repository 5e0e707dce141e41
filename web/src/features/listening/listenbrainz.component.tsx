import { AlertTriangle, AudioLines, CheckCircle2 } from 'lucide-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ListenBrainzStatus } from '@encore/common/listening.contract';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { PasswordField } from '../../components/ui/password-field';
import { Spinner } from '../../components/ui/spinner';
import { apiErrorText, toastApiError } from '../../lib/api-error-toast';
import { useLanguage, useT } from '../../lib/i18n/i18n.store';
import { Trans } from '../../lib/i18n/trans.component';
import { formatShortDate } from '../../lib/short-date.format';
import { connectListenBrainz, disconnectListenBrainz, fetchListenBrainz, listenBrainzQueryKey } from './listenbrainz.api';

/** Where a ListenBrainz user finds their token. */
const TOKEN_PAGE = 'https://listenbrainz.org/settings/';

/**
 * The profile page's ListenBrainz section (issue 30): connect a user token (the server checks it
 * with ListenBrainz and keeps it encrypted), see who it is and how sending goes, disconnect.
 */
export function ListenBrainzSection() {
  const t = useT();
  const status = useQuery({ queryKey: listenBrainzQueryKey, queryFn: ({ signal }) => fetchListenBrainz(signal) });
  return (
    <Card className="flex flex-col gap-4 p-5 shadow-none sm:p-6" aria-labelledby="listenbrainz-heading" role="region">
      <h2 id="listenbrainz-heading" className="flex items-center gap-2 text-base font-bold [&_svg]:size-4.5 [&_svg]:text-fuchsia-300">
        <AudioLines aria-hidden />
        {t('listenBrainzHeading')}
      </h2>
      <p className="text-sm leading-relaxed text-muted">{t('listenBrainzBody')}</p>
      {status.isPending ? (
        <Spinner />
      ) : status.isError ? (
        <p role="alert" className="text-sm text-danger">
          {t('listenBrainzLoadFailed')}
        </p>
      ) : status.data.linked ? (
        <Connected status={status.data} />
      ) : (
        <ConnectForm />
      )}
    </Card>
  );
}

function ConnectForm() {
  const t = useT();
  const queryClient = useQueryClient();
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const connect = useMutation({
    mutationFn: (value: string) => connectListenBrainz(value),
    onSuccess: (status) => {
      setToken('');
      queryClient.setQueryData(listenBrainzQueryKey, status);
      toast.success(t('listenBrainzConnected'));
    },
    onError: (failure) => {
      // Our own words for what the server says in English: the token refused, ListenBrainz away.
      setError(
        apiErrorText(failure, {
          fallback: t('listenBrainzConnectFailed'),
          byStatus: { 400: t('listenBrainzTokenRefused'), 503: t('listenBrainzUnavailable') },
        }),
      );
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (connect.isPending) return;
    if (!token.trim()) {
      setError(t('listenBrainzTokenRequired'));
      return;
    }
    connect.mutate(token.trim());
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-3" noValidate aria-busy={connect.isPending}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <PasswordField
          id="listenbrainz-token"
          className="flex-1"
          label={t('listenBrainzTokenLabel')}
          value={token}
          maxLength={200}
          autoComplete="off"
          spellCheck={false}
          dir="ltr"
          error={error}
          showLabel={t('showPassword')}
          hideLabel={t('hidePassword')}
          onChange={(event) => {
            setToken(event.target.value);
            setError(null);
          }}
        />
        <Button type="submit" variant="secondary" className="sm:mt-7" disabled={connect.isPending}>
          {connect.isPending ? <Spinner /> : null}
          {t('listenBrainzConnect')}
        </Button>
      </div>
      <p className="text-sm text-subtle">
        <Trans
          k="listenBrainzTokenHint"
          values={{
            link: (
              <a href={TOKEN_PAGE} target="_blank" rel="noreferrer noopener" className="text-fuchsia-300 underline-offset-4 hover:underline">
                {t('listenBrainzTokenHintLink')}
              </a>
            ),
          }}
        />
      </p>
    </form>
  );
}

function Connected({ status }: { status: ListenBrainzStatus }) {
  const t = useT();
  const language = useLanguage();
  const queryClient = useQueryClient();
  const disconnect = useMutation({
    mutationFn: disconnectListenBrainz,
    onSuccess: () => {
      queryClient.setQueryData<ListenBrainzStatus>(listenBrainzQueryKey, {
        linked: false,
        userName: null,
        lastSubmittedAt: null,
        lastError: null,
        lastErrorAt: null,
      });
      toast.success(t('listenBrainzDisconnected'));
    },
    onError: (failure) => toastApiError(failure, { fallback: t('listenBrainzDisconnectFailed') }),
  });
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-0.5">
          <p className="flex items-center gap-2 text-sm font-semibold">
            <CheckCircle2 aria-hidden className="size-4 shrink-0 text-success" />
            <span className="min-w-0 truncate">{t('listenBrainzConnectedAs', { userName: status.userName ?? '' })}</span>
          </p>
          <p className="text-sm text-muted">
            {status.lastSubmittedAt ? t('listenBrainzLastSent', { date: formatShortDate(status.lastSubmittedAt, language) }) : t('listenBrainzNothingSent')}
          </p>
        </div>
        <Button variant="secondary" size="sm" onClick={() => disconnect.mutate()} disabled={disconnect.isPending}>
          {disconnect.isPending ? <Spinner /> : null}
          {t('listenBrainzDisconnect')}
        </Button>
      </div>
      {status.lastError ? (
        <p role="status" className="flex items-start gap-2 rounded-xl border border-amber-400/30 bg-amber-400/10 p-3 text-sm">
          <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-300" />
          <span className="min-w-0 break-words">{t('listenBrainzLastError', { error: status.lastError })}</span>
        </p>
      ) : null}
    </div>
  );
}
