import { Music } from 'lucide-react';
import { useCoverImage, type CoverSize } from '../lib/cover-image.query';
import { cn } from '../lib/cn';
import { useNearViewport } from '../lib/use-near-viewport';
import { LogoMark } from './logo-mark';

interface CoverArtProps {
  /** The song's storage key when it has a cover (`hasCover`), else null: the fallback shows. */
  fileKey: string | null;
  size: CoverSize;
  className?: string;
  /** The player bar falls back to Encore's logo; elsewhere a music-note placeholder. */
  fallback?: 'icon' | 'logo';
  iconClassName?: string;
}

/** A song's cover art, with a placeholder while it loads or when the file has none. Decorative. */
export function CoverArt({ fileKey, size, className, fallback = 'icon', iconClassName }: CoverArtProps) {
  // Fetched once near the viewport: a grid of 60 albums asks for the covers it shows first,
  // not 60 at once ahead of them (the browser takes 6 at a time).
  const [ref, near] = useNearViewport<HTMLDivElement>();
  const { data: url, isPending } = useCoverImage(fileKey, size, near);
  const loading = Boolean(fileKey) && isPending;
  return (
    <div
      ref={ref}
      className={cn(
        'relative grid shrink-0 place-items-center overflow-hidden bg-gradient-to-br from-violet-900/60 via-surface-raised to-fuchsia-900/40',
        loading && 'animate-pulse',
        className,
      )}
    >
      {url ? (
        <img src={url} alt="" draggable={false} className="absolute inset-0 size-full object-cover" />
      ) : fallback === 'logo' ? (
        <LogoMark className={cn('size-3/5', iconClassName)} />
      ) : (
        <Music aria-hidden className={cn('size-2/5 text-fuchsia-200/70', iconClassName)} />
      )}
    </div>
  );
}
