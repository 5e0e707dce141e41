import { ListMusic, Play, RotateCcw } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { AiGeneratedBadge } from '../../components/ai-generated-badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { useT, useTCount } from '../../lib/i18n/i18n.store';
import { player } from '../../player/player.store';
import { AnalysisNote } from './analysis-note.component';
import type { GenerationOutcome } from './discovery.api';
import { GeneratedSongList, generatedPlaylistSource } from './generated-song-list.component';

/** How long the 'Playing {n} songs' loading toast stays (SPEC 8). */
const PLAYING_TOAST_MS = 2000;

/**
 * The answer (SPEC 2 and 3): the 'AI Generated' badge, name, description, the songs with their
 * reasons, Play All, 'View Playlist' to /playlists/{id} and 'Create Another'.
 */
export function GenerationResult({ outcome, onCreateAnother }: { outcome: GenerationOutcome; onCreateAnother: () => void }) {
  const t = useT();
  const count = useTCount();
  const { chosen, note } = outcome;

  const playAll = () => {
    const songs = chosen.map((entry) => entry.song);
    const notice = toast.loading(count('playingSongs', songs.length));
    setTimeout(() => toast.dismiss(notice), PLAYING_TOAST_MS);
    player.playQueue(songs, 0, { wrap: false, skipUnplayable: true, source: generatedPlaylistSource(outcome.id) });
  };

  return (
    <Card aria-labelledby="ai-result-name" className="flex flex-col gap-5 p-5 sm:p-7">
      <header className="flex flex-col gap-2">
        <AiGeneratedBadge />
        <h2 id="ai-result-name" dir="auto" className="text-2xl font-extrabold tracking-tight break-words sm:text-3xl rtl:text-right">
          {outcome.name}
        </h2>
        <p className="text-sm font-medium text-muted">{count('playlistSongCount', chosen.length)}</p>
        {outcome.description ? (
          <p dir="auto" className="max-w-prose text-sm leading-relaxed whitespace-pre-line text-muted rtl:text-right">
            {outcome.description}
          </p>
        ) : null}
        {note ? <AnalysisNote note={note} /> : null}
      </header>

      <div className="flex flex-wrap gap-2.5">
        <Button onClick={playAll} disabled={chosen.length === 0}>
          <Play aria-hidden className="size-4 fill-current" />
          {t('playAll')}
        </Button>
        <Button asChild variant="secondary">
          <Link to={`/playlists/${outcome.id}`}>
            <ListMusic aria-hidden className="size-4" />
            {t('viewPlaylist')}
          </Link>
        </Button>
        <Button variant="outline" onClick={onCreateAnother}>
          <RotateCcw aria-hidden className="size-4" />
          {t('aiCreateAnother')}
        </Button>
      </div>

      <section aria-labelledby="ai-result-songs" className="flex flex-col gap-2 border-t border-border pt-4">
        <h3 id="ai-result-songs" className="text-base font-bold tracking-tight">
          {t('aiResultSongsHeading')}
        </h3>
        <GeneratedSongList playlistId={outcome.id} songs={chosen} />
      </section>
    </Card>
  );
}
