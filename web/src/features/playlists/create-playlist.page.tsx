import { ListPlus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { BackLink } from '../../components/back-link';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n/i18n.store';
import { useDocumentTitle } from '../../lib/use-document-title';
import { PlaylistFields, type PlaylistDraft } from './playlist-fields.component';
import { useCreatePlaylist } from './playlists.queries';
import { PageGlow } from '../../components/page-glow';

/** Create playlist (SPEC 2, 5, 8): a required name and an optional description; success goes to /playlists. */
export function CreatePlaylistPage() {
  const t = useT();
  useDocumentTitle('createPlaylistTitle');
  const navigate = useNavigate();
  const create = useCreatePlaylist();
  const [draft, setDraft] = useState<PlaylistDraft>({ name: '', description: '' });
  const [nameError, setNameError] = useState<string | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending) return;
    const name = draft.name.trim();
    if (!name) {
      setNameError(t('playlistNameRequired'));
      toast.error(t('playlistNameRequired'));
      return;
    }
    create.mutate(
      { name, description: draft.description.trim() || null },
      {
        onSuccess: () => {
          toast.success(t('playlistCreated'));
          void navigate('/playlists');
        },
      },
    );
  };

  return (
    <div className="relative isolate mx-auto w-full max-w-xl px-4 pt-28 pb-16 sm:px-6">
      <PageGlow className="top-10 h-[320px] max-w-xl" />
      <BackLink to="/playlists">{t('backToPlaylists')}</BackLink>
      <Card className="mt-5 p-6 sm:p-8">
        <header className="flex items-center gap-4">
          <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-accent-gradient text-white shadow-lg shadow-fuchsia-950/40">
            <ListPlus aria-hidden className="size-6" />
          </span>
          <div className="flex flex-col gap-1">
            <h1 className="text-2xl font-extrabold tracking-tight">{t('createPlaylistTitle')}</h1>
            <p className="text-sm text-muted">{t('createPlaylistSubtitle')}</p>
          </div>
        </header>
        <form noValidate onSubmit={submit} aria-busy={create.isPending} className="mt-7 flex flex-col gap-5">
          <PlaylistFields
            idPrefix="create-playlist"
            value={draft}
            nameError={nameError}
            disabled={create.isPending}
            autoFocus
            onChange={(next) => {
              setDraft(next);
              if (next.name !== draft.name) setNameError(null);
            }}
          />
          <div className="mt-1 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button asChild variant="ghost">
              <Link to="/playlists">{t('cancel')}</Link>
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? <Spinner /> : <ListPlus aria-hidden className="size-4" />}
              {create.isPending ? t('creating') : t('createPlaylist')}
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
