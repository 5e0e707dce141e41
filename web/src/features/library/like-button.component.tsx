import { LIKE_HEART_MS } from '@encore/common/constants';
import type { SongListEntry } from '@encore/common/library.contract';
import { Heart } from 'lucide-react';
import { useEffect, useState } from 'react';
import { cn } from '../../lib/cn';
import { useT } from '../../lib/i18n/i18n.store';
import { useToggleLike } from './library.queries';

interface LikeButtonProps {
  song: SongListEntry;
  className?: string;
  /** 'card' sits on a cover; 'inline' in a row; 'large' on the song page. */
  variant?: 'card' | 'inline' | 'large';
}

/** The like toggle with its floating heart of about a second (SPEC 4, 9). */
export function LikeButton({ song, className, variant = 'inline' }: LikeButtonProps) {
  const t = useT();
  const toggle = useToggleLike();
  const [bursts, setBursts] = useState<number[]>([]);

  useEffect(() => {
    if (bursts.length === 0) return;
    const timer = setTimeout(() => setBursts((current) => current.slice(1)), LIKE_HEART_MS);
    return () => clearTimeout(timer);
  }, [bursts]);

  const liked = song.isLiked;
  return (
    <button
      type="button"
      aria-pressed={liked}
      aria-label={t('likeSong', { title: song.displayName })}
      title={liked ? t('unlikeHint') : t('likeHint')}
      disabled={toggle.isPending}
      onClick={() => {
        setBursts((current) => [...current, Date.now()]);
        toggle.mutate(song.id);
      }}
      className={cn(
        'relative z-10 grid shrink-0 cursor-pointer place-items-center rounded-full transition-[color,background-color,transform] outline-none focus-visible:ring-2 focus-visible:ring-ring active:scale-90 disabled:cursor-wait',
        variant === 'card' && 'size-9 bg-black/45 text-white backdrop-blur-md hover:bg-black/65',
        variant === 'inline' && 'size-9 text-muted hover:bg-white/5 hover:text-foreground',
        variant === 'large' && 'size-12 bg-white/5 text-foreground ring-1 ring-border hover:bg-white/10',
        liked && 'text-fuchsia-400 hover:text-fuchsia-300',
        className,
      )}
    >
      <Heart aria-hidden className={cn(variant === 'large' ? 'size-5.5' : 'size-4.5', liked && 'fill-current')} />
      {bursts.map((id) => (
        <Heart key={id} aria-hidden className="pointer-events-none absolute top-0 left-1/2 size-6 animate-float-heart fill-fuchsia-500 text-fuchsia-500" />
      ))}
    </button>
  );
}
