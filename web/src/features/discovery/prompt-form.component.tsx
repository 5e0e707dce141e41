import { Sparkles, Wand2 } from 'lucide-react';
import { useId, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { FieldError } from '../../components/ui/field-error';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';
import { cn } from '../../lib/cn';
import { useT } from '../../lib/i18n/i18n.store';
import { EXAMPLE_PROMPT_KEYS, MOODS, moodLabelKey, type Mood } from './prompt-moods';

export interface PromptFormProps {
  prompt: string;
  moods: readonly Mood[];
  error: string | null;
  generating: boolean;
  onPromptChange: (prompt: string) => void;
  onMoodToggle: (mood: Mood) => void;
  onSubmit: () => void;
}

/**
 * The prompt of the AI playlist generator (SPEC 2 and 4): the text area, five example prompts,
 * ten mood chips that toggle, and Generate (disabled while the prompt is empty or while busy).
 */
export function PromptForm({ prompt, moods, error, generating, onPromptChange, onMoodToggle, onSubmit }: PromptFormProps) {
  const t = useT();
  const id = useId();
  const errorId = `${id}-error`;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!generating) onSubmit();
  };

  return (
    <form noValidate onSubmit={submit} aria-busy={generating} className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <label htmlFor={`${id}-prompt`} className="text-sm font-semibold">
          {t('aiPromptLabel')}
        </label>
        <Textarea
          id={`${id}-prompt`}
          dir="auto"
          rows={3}
          maxLength={2000}
          value={prompt}
          placeholder={t('aiPromptPlaceholder')}
          disabled={generating}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => onPromptChange(event.target.value)}
          onKeyDown={(event) => {
            // Ctrl/Cmd+Enter generates, as in a chat box; plain Enter makes a new line.
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <FieldError id={errorId}>{error}</FieldError>
      </div>

      <fieldset className="flex flex-col gap-2.5" disabled={generating}>
        <legend className="mb-2.5 text-sm font-semibold">{t('aiExamplesHeading')}</legend>
        <ul className="flex flex-wrap gap-2">
          {EXAMPLE_PROMPT_KEYS.map((key) => (
            <li key={key} className="min-w-0">
              <button
                type="button"
                onClick={() => onPromptChange(t(key))}
                className="max-w-full cursor-pointer truncate rounded-xl border border-border bg-surface/60 px-3 py-1.5 text-start text-sm text-muted transition-colors outline-none hover:border-accent/50 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-60"
              >
                {t(key)}
              </button>
            </li>
          ))}
        </ul>
      </fieldset>

      <fieldset className="flex flex-col gap-2.5" disabled={generating}>
        <legend className="mb-2.5 text-sm font-semibold">{t('aiMoodsHeading')}</legend>
        <ul className="flex flex-wrap gap-2">
          {MOODS.map((mood) => {
            const selected = moods.includes(mood);
            return (
              <li key={mood}>
                <button
                  type="button"
                  aria-pressed={selected}
                  onClick={() => onMoodToggle(mood)}
                  className={cn(
                    'inline-flex h-9 cursor-pointer items-center gap-1.5 rounded-full px-4 text-sm font-medium ring-1 ring-border transition-colors outline-none',
                    'text-muted hover:text-foreground hover:ring-accent/50 focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-60',
                    selected && 'bg-accent-gradient text-white shadow-md shadow-fuchsia-900/30 ring-transparent hover:text-white',
                  )}
                >
                  {selected ? <Sparkles aria-hidden className="size-3.5" /> : null}
                  {t(moodLabelKey(mood))}
                </button>
              </li>
            );
          })}
        </ul>
      </fieldset>

      <Button type="submit" size="lg" disabled={generating || prompt === ''} className="w-full sm:w-auto sm:self-end">
        {generating ? <Spinner /> : <Wand2 aria-hidden className="size-4" />}
        {generating ? t('aiGenerating') : t('aiGenerate')}
      </Button>
    </form>
  );
}
