import { useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';
import { useT } from '../../lib/i18n/i18n.store';
import { LyricsCounts } from './lyrics-counts.component';

interface LyricsEditProps {
  initialText: string;
  maxLength: number;
  rtl: boolean;
  saving: boolean;
  onSave: (text: string) => void;
  onCancel: () => void;
}

/**
 * Editing (SPEC 2, 4): the text with Save and Cancel. The server keeps the timings of the words
 * that did not change; only the edited stretch is timed again.
 */
export function LyricsEdit({ initialText, maxLength, rtl, saving, onSave, onCancel }: LyricsEditProps) {
  const t = useT();
  const id = useId();
  const [text, setText] = useState(initialText);
  const tooLong = text.length > maxLength;
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (!tooLong) onSave(text);
      }}
    >
      <label htmlFor={id} className="sr-only">
        {t('lyricsEditLabel')}
      </label>
      <Textarea
        id={id}
        dir={rtl ? 'rtl' : 'auto'}
        rows={16}
        value={text}
        autoFocus
        aria-invalid={tooLong || undefined}
        className="min-h-72 text-base leading-relaxed"
        onChange={(event) => setText(event.currentTarget.value)}
      />
      <div className="flex flex-wrap items-center gap-2">
        <LyricsCounts text={text} className={tooLong ? 'text-danger' : undefined} />
        <span className="flex-1" />
        <Button type="button" variant="ghost" onClick={onCancel} disabled={saving}>
          {t('lyricsCancel')}
        </Button>
        <Button type="submit" disabled={saving || tooLong}>
          {saving ? <Spinner /> : null}
          {t('lyricsSave')}
        </Button>
      </div>
    </form>
  );
}
