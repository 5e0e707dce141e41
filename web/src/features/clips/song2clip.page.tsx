import { Clapperboard, Eye, Film, PenLine, X } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Progress } from '../../components/ui/progress';
import { Spinner } from '../../components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { ToggleGroup } from '../../components/ui/toggle-group';
import { PageGlow } from '../../components/page-glow';
import { cn } from '../../lib/cn';
import { useT } from '../../lib/i18n/i18n.store';
import { formatQuantity } from '../../lib/ltr-run.format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { clipEditor, clipEditorStore, settingsForCreation, useClipEditor, type ClipEditorMode, type ClipEditorTab } from './clip-editor.store';
import { ClipPreview } from './clip-preview.component';
import { CreatedClip } from './created-clip.component';
import { EffectsTab } from './effects-tab.component';
import { MediaTab } from './media-tab.component';
import { TextTab } from './text-tab.component';
import { useClipCreation } from './use-clip-creation';

/** SPEC 2's Song2Clip editor: preview on the left two-thirds, the Media, Text and Effects tabs and Create Clip on the right. */
export function Song2ClipPage() {
  const t = useT();
  useDocumentTitle('clipEditorTitle');
  const tab = useClipEditor((state) => state.tab);
  const mode = useClipEditor((state) => state.mode);
  const songId = useClipEditor((state) => state.song?.id ?? 0);
  const creation = useClipCreation();

  const create = () => {
    const state = clipEditorStore.getState();
    void creation.create({ songId: state.song?.id ?? null, settings: settingsForCreation(state), files: state.media.items.map((item) => item.file) });
  };

  return (
    // The same width as every other page (max-w-6xl, the same side margins: issue 37).
    <div className="relative isolate mx-auto w-full max-w-6xl px-4 pt-24 pb-16 sm:px-6 sm:pt-28">
      <PageGlow className="top-16 h-[420px] max-w-5xl" />
      <div className="flex w-full min-w-0 flex-col gap-6">
        <header className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="flex items-center gap-3 text-2xl font-extrabold tracking-tight sm:text-3xl">
            <Clapperboard aria-hidden className="size-7 text-fuchsia-300" />
            {t('clipEditorTitle')}
          </h1>
          <div className="flex flex-wrap items-center gap-2">
            <Button asChild variant="ghost" size="sm">
              <Link to="/clips">
                <Film aria-hidden className="size-4" />
                {t('myClipsLink')}
              </Link>
            </Button>
            <ToggleGroup<ClipEditorMode>
              label={t('clipModeLabel')}
              value={mode}
              onValueChange={clipEditor.setMode}
              items={[
                { value: 'preview', label: t('clipModePreview'), icon: <Eye /> },
                { value: 'edit', label: t('clipModeEdit'), icon: <PenLine /> },
              ]}
            />
          </div>
        </header>

        {/* One column of minmax(0, 1fr): an implicit grid column would grow to its widest content. */}
        <div className={cn('grid grid-cols-1 gap-6', mode === 'edit' && 'lg:grid-cols-3')}>
          <Card className={cn('p-4 sm:p-5', mode === 'edit' && 'lg:col-span-2')}>
            {creation.videoUrl ? (
              <CreatedClip videoUrl={creation.videoUrl} clipId={creation.clipId} onEditAgain={creation.reset} />
            ) : (
              <ClipPreview key={songId} />
            )}
          </Card>

          {mode === 'edit' ? (
            <Card className="flex flex-col gap-4 p-4 sm:p-5">
              <Tabs value={tab} onValueChange={(value) => clipEditor.setTab(value as ClipEditorTab)}>
                <TabsList className="grid-cols-3">
                  <TabsTrigger value="media">{t('clipTabMedia')}</TabsTrigger>
                  <TabsTrigger value="text">{t('clipTabText')}</TabsTrigger>
                  <TabsTrigger value="effects">{t('clipTabEffects')}</TabsTrigger>
                </TabsList>
                <TabsContent value="media" className="pt-4">
                  <MediaTab />
                </TabsContent>
                <TabsContent value="text" className="pt-4">
                  <TextTab />
                </TabsContent>
                <TabsContent value="effects" className="pt-4">
                  <EffectsTab />
                </TabsContent>
              </Tabs>
              <CreateClipButton
                busy={creation.busy}
                progress={creation.progress}
                message={creation.message}
                onCreate={create}
                onCancel={() => void creation.cancel()}
              />
            </Card>
          ) : null}
        </div>
      </div>
    </div>
  );
}

function CreateClipButton({
  busy,
  progress,
  message,
  onCreate,
  onCancel,
}: {
  busy: boolean;
  progress: number;
  message: string | null;
  onCreate: () => void;
  onCancel: () => void;
}) {
  const t = useT();
  return (
    <div className="flex flex-col gap-2">
      <Button type="button" size="lg" className="w-full" disabled={busy} onClick={onCreate}>
        {busy ? <Spinner /> : <Clapperboard aria-hidden />}
        {busy ? t('clipCreating') : t('clipCreate')}
      </Button>
      {busy ? (
        <div className="flex flex-col gap-2" aria-live="polite">
          <Progress value={progress} aria-label={t('clipProgressLabel')} />
          <div className="flex items-center justify-between gap-2 text-xs text-muted">
            <span data-testid="clip-progress">{t('clipProgress', { percent: formatQuantity(progress, '%') })}</span>
            {message ? <span className="truncate">{message}</span> : null}
          </div>
          <Button type="button" variant="ghost" size="sm" onClick={onCancel} className="self-center">
            <X aria-hidden />
            {t('clipCancel')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
