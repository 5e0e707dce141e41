import { Hand, MoveHorizontal, Plus, Square, Trash2 } from 'lucide-react';
import { useId, useState, type Dispatch } from 'react';
import { Button } from '../../components/ui/button';
import { Label } from '../../components/ui/label';
import { useT } from '../../lib/i18n/i18n.store';
import type { TapSync } from './use-tap-sync';
import type { EditorWord, WordAction } from './word-editor.state';

interface WordToolbarProps {
  words: readonly EditorWord[];
  selected: ReadonlySet<string>;
  dispatch: Dispatch<WordAction>;
  tap: TapSync;
  audioReady: boolean;
  /** The song's length when known: Add keeps the new word inside it. */
  songDuration: number | null;
  onClearSelection: () => void;
}

/** Add, tap-to-sync, shift all or a selection, delete a selection (SPEC 2 word editor). */
export function WordToolbar({ words, selected, dispatch, tap, audioReady, songDuration, onClearSelection }: WordToolbarProps) {
  const t = useT();
  const id = useId();
  const [shift, setShift] = useState('0.1');
  const seconds = Number(shift.replace(',', '.'));
  const shiftValid = shift.trim() !== '' && Number.isFinite(seconds) && seconds !== 0;
  const chosen = words.filter((word) => selected.has(word.key)).map((word) => word.key);
  const firstSelected = words.findIndex((word) => selected.has(word.key));
  const tapWord = words[tap.index];

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-2">
        <Button variant="secondary" size="sm" onClick={() => dispatch({ type: 'add', afterKey: chosen.at(-1) ?? null, duration: songDuration })}>
          <Plus aria-hidden className="size-4" />
          {t('wordAdd')}
        </Button>
        {tap.active ? (
          <Button variant="danger" size="sm" onClick={tap.stop}>
            <Square aria-hidden className="size-4" />
            {t('wordTapStop')}
          </Button>
        ) : (
          <Button variant="secondary" size="sm" disabled={!audioReady || words.length === 0} onClick={() => tap.start(Math.max(0, firstSelected))}>
            <Hand aria-hidden className="size-4" />
            {t('wordTapSync')}
          </Button>
        )}
        <div className="flex items-end gap-2">
          <div className="flex flex-col gap-1">
            <Label htmlFor={`${id}-shift`} className="text-xs text-muted">
              {t('wordShiftBy')}
            </Label>
            <input
              id={`${id}-shift`}
              type="number"
              step={0.1}
              dir="ltr"
              className="h-9 w-24 rounded-lg border border-border bg-input px-2 text-sm tabular-nums outline-none focus-visible:ring-2 focus-visible:ring-ring"
              value={shift}
              onChange={(event) => setShift(event.currentTarget.value)}
            />
          </div>
          <Button variant="secondary" size="sm" disabled={!shiftValid || words.length === 0} onClick={() => dispatch({ type: 'shift', keys: null, seconds })}>
            <MoveHorizontal aria-hidden className="size-4" />
            {t('wordShiftAll')}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={!shiftValid || chosen.length === 0}
            onClick={() => dispatch({ type: 'shift', keys: chosen, seconds })}
          >
            {t('wordShiftSelected', { count: chosen.length })}
          </Button>
        </div>
        <Button
          variant="danger"
          size="sm"
          disabled={chosen.length === 0}
          onClick={() => {
            dispatch({ type: 'remove', keys: chosen });
            onClearSelection();
          }}
        >
          <Trash2 aria-hidden className="size-4" />
          {t('wordDeleteSelected')}
        </Button>
      </div>
      {tap.active && tapWord ? (
        <div className="flex flex-wrap items-center gap-3 rounded-xl border border-accent/40 bg-accent/10 p-3" role="status">
          <p className="flex-1 text-sm">{t('wordTapHint', { word: tapWord.text })}</p>
          <Button
            size="lg"
            className="min-w-32 touch-none select-none"
            onPointerDown={(event) => {
              event.preventDefault();
              tap.press();
            }}
            onPointerUp={tap.release}
            onPointerLeave={tap.release}
          >
            {t('wordTap')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
