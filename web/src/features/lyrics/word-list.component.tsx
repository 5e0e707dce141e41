import { memo, type Dispatch } from 'react';
import type { EditorWord, WordAction } from './word-editor.state';
import { WordRow } from './word-row.component';
import { useT } from '../../lib/i18n/i18n.store';

interface WordListProps {
  words: readonly EditorWord[];
  selected: ReadonlySet<string>;
  /** The word being sung now, marked in the list. */
  activeKey: string | null;
  /** The word Add made last, brought into view. */
  revealKey: string | null;
  songDuration: number | null;
  dispatch: Dispatch<WordAction>;
  onToggleSelect: (key: string) => void;
  onFieldValidity: (field: string, valid: boolean) => void;
  onSeek: (seconds: number) => void;
}

/** The words with their start and end, in time order (SPEC 2's word-timing editor). */
export const WordList = memo(function WordList({
  words,
  selected,
  activeKey,
  revealKey,
  songDuration,
  dispatch,
  onToggleSelect,
  onFieldValidity,
  onSeek,
}: WordListProps) {
  const t = useT();
  return (
    <div className="flex flex-col gap-1">
      <div
        aria-hidden
        className="grid grid-cols-[auto_minmax(0,1fr)_5.5rem_5.5rem] gap-2 px-2 text-xs font-semibold tracking-wide text-muted uppercase sm:grid-cols-[auto_minmax(0,1fr)_6rem_6rem_auto] rtl:tracking-normal"
      >
        <span className="w-4" />
        <span>{t('wordText')}</span>
        <span>{t('wordStart')}</span>
        <span>{t('wordEnd')}</span>
      </div>
      <ol className="flex flex-col gap-0.5" aria-label={t('wordListTitle')}>
        {words.map((word, index) => (
          <WordRow
            key={word.key}
            word={word}
            index={index}
            isLast={index === words.length - 1}
            selected={selected.has(word.key)}
            active={word.key === activeKey}
            reveal={word.key === revealKey}
            songDuration={songDuration}
            dispatch={dispatch}
            onToggleSelect={onToggleSelect}
            onFieldValidity={onFieldValidity}
            onSeek={onSeek}
          />
        ))}
      </ol>
    </div>
  );
});
