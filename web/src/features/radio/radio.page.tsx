import type { RadioStation } from '@encore/common/radio.contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { ListPageHeader } from '../../components/list-page-header';
import { StatusPanel } from '../../components/status-panel';
import { TryAgainButton } from '../../components/try-again-button';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { toastApiError } from '../../lib/api-error-toast';
import { useT } from '../../lib/i18n/i18n.store';
import { useDocumentTitle } from '../../lib/use-document-title';
import { deleteRadioStation, fetchRadioStations, postRadioStation, putRadioStation } from './radio.api';
import { RadioStationDialog } from './radio-station-dialog.component';
import { RadioStationRow } from './radio-station-row.component';
import { radio, useRadio } from './radio.store';

const stationsKey = ['radio', 'stations'] as const;

/**
 * Internet radio (issue 41): the stations, each played live by the app's radio (radio.store.ts,
 * which keeps playing on other pages); admins add, edit and delete them.
 */
export function RadioPage() {
  const t = useT();
  useDocumentTitle('libraryRadio');
  const queryClient = useQueryClient();
  const stations = useQuery({ queryKey: stationsKey, queryFn: ({ signal }) => fetchRadioStations(signal) });
  const playingId = useRadio((state) => state.station?.id ?? null);
  // The dialog: closed, adding (null station), or editing one. A key remounts it with that station's values.
  const [editing, setEditing] = useState<{ station: RadioStation | null; key: number } | null>(null);
  const [deleting, setDeleting] = useState<RadioStation | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: stationsKey });

  const remove = useMutation({
    mutationFn: (station: RadioStation) => deleteRadioStation(station.id),
    onSuccess: async (_, station) => {
      radio.stationDeleted(station.id);
      setDeleting(null);
      toast.success(t('radioDeleted'));
      await refresh();
    },
    onError: (error) => toastApiError(error, { fallback: t('radioDeleteFailed') }),
  });

  const canManage = stations.data?.canManage ?? false;
  const addButton = canManage ? (
    <Button onClick={() => setEditing({ station: null, key: Date.now() })}>
      <Plus aria-hidden className="size-4" />
      {t('radioAdd')}
    </Button>
  ) : null;

  return (
    <div className="relative isolate mx-auto w-full max-w-4xl px-4 pt-28 pb-16 sm:px-6">
      <ListPageHeader title={t('libraryRadio')} subtitle={t('radioSubtitle')} action={addButton} />
      <section aria-label={t('radioStationsLabel')} className="mt-6">
        {stations.isPending ? (
          <p role="status" className="flex items-center justify-center gap-3 text-sm text-muted">
            <Spinner className="size-5 text-accent" />
            {t('radioLoading')}
          </p>
        ) : stations.isError ? (
          <StatusPanel
            role="alert"
            tone="danger"
            icon={<TriangleAlert aria-hidden />}
            title={t('radioLoadFailed')}
            actions={<TryAgainButton query={stations} />}
          />
        ) : stations.data.stations.length === 0 ? (
          <p className="text-center text-sm text-muted">{canManage ? t('radioEmptyAdmin') : t('radioEmpty')}</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {stations.data.stations.map((station) => (
              <li key={station.id}>
                <RadioStationRow
                  station={station}
                  playing={playingId === station.id}
                  canManage={canManage}
                  onPlay={() => radio.start(station)}
                  onStop={radio.stop}
                  onEdit={() => setEditing({ station, key: Date.now() })}
                  onDelete={() => setDeleting(station)}
                />
              </li>
            ))}
          </ul>
        )}
      </section>
      {editing ? (
        <RadioStationDialog
          key={editing.key}
          station={editing.station}
          open
          onOpenChange={(open) => !open && setEditing(null)}
          save={async (body) => {
            const saved = editing.station ? await putRadioStation(editing.station.id, body) : await postRadioStation(body);
            radio.stationSaved(saved);
            await refresh();
          }}
        />
      ) : null}
      <Dialog open={deleting !== null} onOpenChange={(open) => !open && !remove.isPending && setDeleting(null)}>
        <DialogContent closeLabel={t('close')} role="alertdialog">
          <DialogHeader>
            <DialogTitle>{t('radioDeleteTitle')}</DialogTitle>
            <DialogDescription>{t('radioDeleteDescription', { name: deleting?.name ?? '' })}</DialogDescription>
          </DialogHeader>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="ghost" onClick={() => setDeleting(null)} disabled={remove.isPending}>
              {t('cancel')}
            </Button>
            <Button
              variant="danger"
              onClick={() => deleting && remove.mutate(deleting)}
              disabled={remove.isPending}
              className="bg-danger text-white hover:bg-danger/85"
            >
              {remove.isPending ? <Spinner /> : null}
              {t('radioDelete')}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </div>
  );
}
