import { SMART_FIELDS, type SmartFieldInfo } from '@encore/common/smart-playlist.rules';
import type { SmartPlaylist } from '@encore/common/smart-playlist.contract';
import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { BackLink } from '../../../components/back-link';
import { DetailQueryView } from '../../../components/detail-query-view';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { useT, useTCount } from '../../../lib/i18n/i18n.store';
import { useDebounced } from '../../../lib/use-debounced';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { fieldLabelKey, SmartRuleEditor } from './smart-rule-editor.component';
import { emptyDraft, fromRules, toRules, type Draft } from './smart-rules.draft';
import { useSaveSmartPlaylist, useSmartPlaylist, useSmartPreview } from './smart-playlists.queries';

const selectClass =
  'h-11 min-w-0 rounded-xl border border-border bg-input/70 px-3 text-[0.95rem] text-foreground outline-none hover:border-accent/40 focus-visible:border-accent focus-visible:ring-3 focus-visible:ring-accent/25';

/** /smart-playlists/new and /smart-playlists/{id}/edit: the rule editor with the live count. */
export function SmartPlaylistEditorPage() {
  const t = useT();
  const param = useParams().id;
  const id = param === undefined ? undefined : Number(param);
  useDocumentTitle(id === undefined ? 'smartEditorNewTitle' : 'smartEditorEditTitle');
  if (id === undefined) return <Frame>{<SmartPlaylistForm />}</Frame>;
  return (
    <Frame>
      <EditExisting id={id} notFound={t('smartNotFoundTitle')} />
    </Frame>
  );
}

function Frame({ children }: { children: React.ReactNode }) {
  return <div className="relative isolate mx-auto w-full max-w-4xl px-4 pt-24 pb-16 sm:px-6 sm:pt-28">{children}</div>;
}

function EditExisting({ id, notFound }: { id: number; notFound: string }) {
  const t = useT();
  const smart = useSmartPlaylist(id);
  return (
    <DetailQueryView
      query={smart}
      loadingText={t('smartLoading')}
      notFoundTitle={notFound}
      notFoundBody={t('smartNotFoundBody')}
      errorTitle={t('smartErrorTitle')}
      back={null}
    >
      {(data) => <SmartPlaylistForm existing={data} />}
    </DetailQueryView>
  );
}

function SmartPlaylistForm({ existing }: { existing?: SmartPlaylist }) {
  const t = useT();
  const countOf = useTCount();
  const navigate = useNavigate();
  const [name, setName] = useState(existing?.name ?? '');
  const [comment, setComment] = useState(existing?.comment ?? '');
  const [draft, setDraft] = useState<Draft>(() => (existing ? fromRules(existing.rules) : emptyDraft()));
  const rulesText = useMemo(() => JSON.stringify(toRules(draft)), [draft]);
  const settled = useDebounced(rulesText, 300);
  const preview = useSmartPreview(settled || undefined);
  const save = useSaveSmartPlaylist(existing?.id);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    save.mutate(
      { name, comment, rules: toRules(draft) },
      {
        onSuccess: (saved) => {
          toast.success(t('smartSaved'));
          void navigate(`/smart-playlists/${saved.id}`);
        },
      },
    );
  };

  const sortable: readonly SmartFieldInfo[] = SMART_FIELDS;
  return (
    <form onSubmit={submit} className="flex flex-col gap-6">
      <BackLink to={existing ? `/smart-playlists/${existing.id}` : '/playlists'}>{t('smartBack')}</BackLink>
      <h1 className="text-3xl font-extrabold tracking-tight">{existing ? t('smartEditorEditTitle') : t('smartEditorNewTitle')}</h1>
      <Card className="flex flex-col gap-5 p-4 sm:p-6">
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="flex min-w-0 flex-col gap-2">
            <Label htmlFor="smart-name">{t('smartName')}</Label>
            <Input
              id="smart-name"
              dir="auto"
              value={name}
              placeholder={t('smartNamePlaceholder')}
              maxLength={100}
              onChange={(event) => setName(event.target.value)}
            />
          </div>
          <div className="flex min-w-0 flex-col gap-2">
            <Label htmlFor="smart-comment">{t('smartComment')}</Label>
            <Input id="smart-comment" dir="auto" value={comment} maxLength={1000} onChange={(event) => setComment(event.target.value)} />
          </div>
        </div>
        <SmartRuleEditor root={draft.root} onChange={(root) => setDraft((current) => ({ ...current, root }))} />
        <div className="flex flex-wrap items-end gap-3">
          <div className="flex min-w-0 flex-col gap-2">
            <Label htmlFor="smart-sort">{t('smartSortBy')}</Label>
            <select
              id="smart-sort"
              className={selectClass}
              value={draft.sort}
              onChange={(event) => setDraft((current) => ({ ...current, sort: event.target.value }))}
            >
              <option value="random">{t('smartSortRandom')}</option>
              {sortable.map((field) => (
                <option key={field.name} value={field.name}>
                  {t(fieldLabelKey(field.name))}
                </option>
              ))}
            </select>
          </div>
          <select
            aria-label={t('smartSortBy')}
            className={selectClass}
            value={draft.order}
            onChange={(event) => setDraft((current) => ({ ...current, order: event.target.value === 'desc' ? 'desc' : 'asc' }))}
          >
            <option value="asc">{t('smartAscending')}</option>
            <option value="desc">{t('smartDescending')}</option>
          </select>
          <div className="flex min-w-0 flex-col gap-2">
            <Label htmlFor="smart-limit">{t('smartLimit')}</Label>
            <Input
              id="smart-limit"
              type="number"
              min={1}
              className="w-36"
              placeholder={t('smartLimitPlaceholder')}
              value={draft.limit}
              onChange={(event) => setDraft((current) => ({ ...current, limit: event.target.value }))}
            />
          </div>
        </div>
        <p role="status" aria-live="polite" data-testid="smart-count" className="text-sm font-semibold text-fuchsia-200">
          {preview.isError ? (
            <span className="text-danger">{preview.error.message}</span>
          ) : preview.data && !preview.isPlaceholderData ? (
            countOf('smartMatching', preview.data.total)
          ) : (
            t('smartCounting')
          )}
        </p>
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={save.isPending || name.trim() === ''}>
            {save.isPending ? <Spinner /> : null}
            {t('smartSave')}
          </Button>
          <Button type="button" variant="secondary" onClick={() => void navigate(existing ? `/smart-playlists/${existing.id}` : '/playlists')}>
            {t('smartCancel')}
          </Button>
        </div>
      </Card>
    </form>
  );
}
