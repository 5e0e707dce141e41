import { Sparkles } from 'lucide-react';
import { cn } from '../lib/cn';
import { useT } from '../lib/i18n/i18n.store';
import { Badge } from './ui/badge';

/** 'AI Generated' (SPEC 2): on the generator's answer and on AI playlists in My Playlists and their page. */
export function AiGeneratedBadge({ className }: { className?: string }) {
  const t = useT();
  return (
    <Badge className={cn('w-fit', className)}>
      <Sparkles aria-hidden className="size-3.5" />
      {t('aiGeneratedBadge')}
    </Badge>
  );
}
