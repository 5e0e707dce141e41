import { useQuery } from '@tanstack/react-query';
import { Download, PenLine } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { useT } from '../../lib/i18n/i18n.store';
import { fetchMyClips, MY_CLIPS_QUERY_KEY } from './clips.api';

/** SPEC 2's 'Created Clip Preview' panel: the video player (controls, no autoplay) and a download. */
export function CreatedClip({ videoUrl, clipId, onEditAgain }: { videoUrl: string; clipId: number | null; onEditAgain: () => void }) {
  const t = useT();
  const clips = useQuery({ queryKey: MY_CLIPS_QUERY_KEY, queryFn: ({ signal }) => fetchMyClips(signal), enabled: clipId !== null });
  // The server names the download (song title and format); the player's URL is the fallback.
  const downloadUrl = clips.data?.find((clip) => clip.id === clipId)?.downloadUrl ?? videoUrl;
  return (
    <section aria-labelledby="created-clip-title" className="flex flex-col gap-3">
      <h2 id="created-clip-title" className="text-lg font-bold">
        {t('clipCreatedPreview')}
      </h2>
      <video
        src={videoUrl}
        controls
        playsInline
        preload="metadata"
        data-testid="created-clip-video"
        className="max-h-[65vh] w-full rounded-xl bg-black ring-1 ring-border"
      />
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="secondary">
          <a href={downloadUrl} download>
            <Download aria-hidden />
            {t('clipDownload')}
          </a>
        </Button>
        <Button type="button" variant="ghost" onClick={onEditAgain}>
          <PenLine aria-hidden />
          {t('clipEditAgain')}
        </Button>
      </div>
    </section>
  );
}
