import { WORD_TIME_MIN, WORD_TIME_STEP } from '@encore/common/words.contract';
import { Combine, Plus, Scissors, Trash2 } from 'lucide-react';
import { memo, useEffect, useRef, useState, type Dispatch } from 'react';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { useT } from '../../lib/i18n/i18n.store';
import type { EditorWord, WordAction } from './word-editor.state';
import { parseTypedTime, wordProblems } from './word-problems';

const fieldClass =
  'h-9 w-full min-w-0 rounded-lg border border-border bg-input px-2 text-sm text-foreground outline-none focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-danger/70';

interface TimeInputProps {
  value: number;
  label: string;
  onCommit: (seconds: number) => void;
  /** The typed text is not a time: the row shows why, and Save waits. */
  onValidity: (valid: boolean) => void;
}

/**
 * A start or end field (SPEC 5: numeric, min 0, step 0.1). What is typed stays as typed; each
 * valid value is committed, an invalid one is marked and never reaches the words.
 */
function TimeInput({ value, label, onCommit, onValidity }: TimeInputProps) {
  const [text, setText] = useState(String(value));
  const [shown, setShown] = useState(value);
  const [focused, setFocused] = useState(false);
  const [valid, setValid] = useState(true);
  // A change from elsewhere (a drag, undo, a shift) shows here unless the user is typing.
  if (value !== shown && !focused && valid) {
    setShown(value);
    setText(String(value));
  }

  return (
    <input
      type="number"
      inputMode="decimal"
      min={WORD_TIME_MIN}
      step={WORD_TIME_STEP}
      aria-label={label}
      aria-invalid={!valid || undefined}
      className={cn(fieldClass, 'tabular-nums')}
      dir="ltr"
      value={text}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      onChange={(event) => {
        const typed = event.currentTarget.value;
        setText(typed);
        // A number field answers '' for text that is not a number (validity.badInput).
        const seconds = event.currentTarget.validity.badInput ? null : parseTypedTime(typed);
        setValid(seconds !== null);
        onValidity(seconds !== null);
        if (seconds !== null) onCommit(seconds);
      }}
    />
  );
}

interface WordRowProps {
  word: EditorWord;
  index: number;
  isLast: boolean;
  selected: boolean;
  active: boolean;
  /** Just added: the row scrolls into view and its text field takes the focus. */
  reveal: boolean;
  songDuration: number | null;
  dispatch: Dispatch<WordAction>;
  onToggleSelect: (key: string) => void;
  onFieldValidity: (field: string, valid: boolean) => void;
  onSeek: (seconds: number) => void;
}

/** One word of the list: select, text, start, end, and its actions; its problems under it. */
export const WordRow = memo(function WordRow({
  word,
  index,
  isLast,
  selected,
  active,
  reveal,
  songDuration,
  dispatch,
  onToggleSelect,
  onFieldValidity,
  onSeek,
}: WordRowProps) {
  const t = useT();
  const name = word.text || `#${index + 1}`;
  const [badFields, setBadFields] = useState({ start: false, end: false });
  const typedBad = badFields.start || badFields.end;
  const problems = [...new Set([...(typedBad ? (['wordTimeInvalid'] as const) : []), ...wordProblems(word, songDuration)])];
  const textField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!reveal) return;
    textField.current?.scrollIntoView({ block: 'center' });
    textField.current?.focus({ preventScroll: true });
  }, [reveal]);
  const fieldValidity = (field: 'start' | 'end') => (valid: boolean) => {
    setBadFields((bad) => (bad[field] === !valid ? bad : { ...bad, [field]: !valid }));
    onFieldValidity(`${word.key}:${field}`, valid);
  };
  return (
    <li
      data-testid="word-row"
      data-word-key={word.key}
      aria-current={active || undefined}
      className={cn(
        'grid grid-cols-[auto_minmax(0,1fr)_5.5rem_5.5rem] items-center gap-2 rounded-xl px-2 py-1.5 sm:grid-cols-[auto_minmax(0,1fr)_6rem_6rem_auto]',
        active && 'bg-accent/10 ring-1 ring-accent/40',
        selected && 'bg-white/5',
      )}
    >
      <input
        type="checkbox"
        className="size-4 cursor-pointer accent-fuchsia-500"
        checked={selected}
        aria-label={t('wordSelect', { word: name })}
        onChange={() => onToggleSelect(word.key)}
      />
      <input
        ref={textField}
        type="text"
        dir="auto"
        aria-label={t('wordTextOf', { n: index + 1 })}
        className={fieldClass}
        value={word.text}
        onFocus={() => onSeek(word.start)}
        onChange={(event) => dispatch({ type: 'change', key: word.key, patch: { text: event.currentTarget.value }, group: `text:${word.key}` })}
      />
      <TimeInput
        value={word.start}
        label={t('wordStartOf', { word: name })}
        onCommit={(start) => dispatch({ type: 'change', key: word.key, patch: { start }, group: `start:${word.key}` })}
        onValidity={fieldValidity('start')}
      />
      <TimeInput
        value={word.end}
        label={t('wordEndOf', { word: name })}
        onCommit={(end) => dispatch({ type: 'change', key: word.key, patch: { end }, group: `end:${word.key}` })}
        onValidity={fieldValidity('end')}
      />
      <div className="col-span-4 flex justify-end gap-0.5 sm:col-span-1">
        <Button
          variant="ghost"
          size="icon"
          className="size-8"
          aria-label={t('wordAddAfter', { word: name })}
          title={t('wordAddAfter', { word: name })}
          onClick={() => dispatch({ type: 'add', afterKey: word.key, duration: songDuration })}
        >
          <Plus aria-hidden className="size-4" />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="size-8"
          aria-label={t('wordSplit', { word: name })}
          title={t('wordSplit', { word: name })}
          onClick={() => dispatch({ type: 'split', key: word.key })}
        >
          <Scissors aria-hidden className="size-4" />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="size-8"
          disabled={isLast}
          aria-label={t('wordMerge', { word: name })}
          title={t('wordMerge', { word: name })}
          onClick={() => dispatch({ type: 'merge', key: word.key })}
        >
          <Combine aria-hidden className="size-4" />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="size-8 hover:text-danger"
          aria-label={t('wordDeleteOne', { word: name })}
          title={t('wordDeleteOne', { word: name })}
          onClick={() => dispatch({ type: 'remove', keys: [word.key] })}
        >
          <Trash2 aria-hidden className="size-4" />
        </Button>
      </div>
      {problems.length > 0 ? (
        <p role="alert" className="col-span-4 text-xs text-danger sm:col-span-5">
          {problems.map((problem) => t(problem)).join(' · ')}
        </p>
      ) : null}
    </li>
  );
});
