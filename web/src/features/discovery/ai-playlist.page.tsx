import { SearchX, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { BackLink } from '../../components/back-link';
import { PageGlow } from '../../components/page-glow';
import { StatusPanel } from '../../components/status-panel';
import { Card } from '../../components/ui/card';
import { Progress } from '../../components/ui/progress';
import { useT } from '../../lib/i18n/i18n.store';
import { formatQuantity } from '../../lib/ltr-run.format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { AnalysisProgressLine } from './analysis-progress.component';
import { useGenerationProgress } from './generation-progress';
import { GenerationResult } from './generation-result.component';
import { PromptForm } from './prompt-form.component';
import { appendMood, moodLabelKey, toggleMood, type Mood } from './prompt-moods';
import { explainedFailure, useGeneratePlaylist } from './use-generate-playlist';

/**
 * The AI playlist generator /ai-playlist (SPEC 2, 4, 5, 8, 9): idle, generating (a progress bar
 * capped at 95), then the result with View Playlist and Create Another: the bar has done its
 * work and goes (no "Generating your playlist 100%" under a finished playlist).
 */
export function AiPlaylistPage() {
  const t = useT();
  useDocumentTitle('aiPlaylistTitle');
  const generate = useGeneratePlaylist();
  const [prompt, setPrompt] = useState('');
  const [moods, setMoods] = useState<Mood[]>([]);
  const [error, setError] = useState<string | null>(null);
  const progress = useGenerationProgress({ active: generate.isPending, done: generate.isSuccess, real: null });

  const changePrompt = (next: string) => {
    setPrompt(next);
    setError(null);
  };

  const toggle = (mood: Mood) => {
    if (!moods.includes(mood)) changePrompt(appendMood(prompt, t(moodLabelKey(mood))));
    setMoods((selected) => toggleMood(selected, mood));
  };

  const submit = () => {
    const text = prompt.trim();
    if (!text) {
      setError(t('aiPromptRequired'));
      toast.error(t('aiPromptRequired'));
      return;
    }
    generate.mutate(text);
  };

  const createAnother = () => {
    generate.reset();
    setPrompt('');
    setMoods([]);
    setError(null);
  };

  const explained = generate.isError ? explainedFailure(generate.error) : null;

  return (
    <div className="relative isolate mx-auto w-full max-w-3xl px-4 pt-24 pb-16 sm:px-6 sm:pt-28">
      <PageGlow className="top-10 h-[360px] max-w-2xl" />
      <BackLink to="/playlists">{t('backToPlaylists')}</BackLink>
      <header className="mt-5 flex items-center gap-4">
        <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-accent-gradient text-white shadow-lg shadow-fuchsia-950/40">
          <Sparkles aria-hidden className="size-6" />
        </span>
        <div className="flex min-w-0 flex-col gap-1">
          <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{t('aiPlaylistTitle')}</h1>
          <p className="text-sm text-muted">{t('aiPlaylistSubtitle')}</p>
        </div>
      </header>

      <div className="mt-7 flex flex-col gap-6">
        {generate.isSuccess ? null : <AnalysisProgressLine />}
        {generate.isSuccess ? null : (
          <Card className="p-5 sm:p-7">
            <PromptForm
              prompt={prompt}
              moods={moods}
              error={error}
              generating={generate.isPending}
              onPromptChange={changePrompt}
              onMoodToggle={toggle}
              onSubmit={submit}
            />
          </Card>
        )}

        {/* The bar belongs to the wait: once the answer shows (or the failure), it goes. */}
        {generate.isPending ? (
          <div className="flex flex-col gap-2" aria-live="polite">
            <div className="flex items-center justify-between text-xs font-medium text-muted">
              <span id="ai-progress-label">{t('aiProgressLabel')}</span>
              <span className="tabular-nums">{formatQuantity(progress, '%')}</span>
            </div>
            <Progress value={progress} aria-labelledby="ai-progress-label" />
          </div>
        ) : null}

        {explained ? (
          <Card>
            <StatusPanel role="alert" icon={<SearchX aria-hidden />} title={t('aiNoAnswerTitle')}>
              <span dir="auto">{explained}</span>
            </StatusPanel>
          </Card>
        ) : null}

        {generate.isSuccess ? <GenerationResult outcome={generate.data} onCreateAnother={createAnother} /> : null}
      </div>
    </div>
  );
}
