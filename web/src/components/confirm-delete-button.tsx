import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useT } from '../lib/i18n/i18n.store';
import { Button } from './ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from './ui/dialog';
import { Spinner } from './ui/spinner';

interface ConfirmDeleteButtonProps {
  label: string;
  title: string;
  description: string;
  confirmLabel: string;
  /** True while the deletion runs: the dialog cannot be dismissed and its buttons wait. */
  pending: boolean;
  /** Runs the deletion; call `close` once it has succeeded. */
  onConfirm: (close: () => void) => void;
}

/** A danger button that deletes only after the user confirms in a dialog. */
export function ConfirmDeleteButton({ label, title, description, confirmLabel, pending, onConfirm }: ConfirmDeleteButtonProps) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        <Trash2 aria-hidden className="size-4" />
        {label}
      </Button>
      <Dialog open={open} onOpenChange={(next) => !pending && setOpen(next)}>
        <DialogContent closeLabel={t('close')} role="alertdialog">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="ghost" onClick={() => setOpen(false)} disabled={pending}>
              {t('cancel')}
            </Button>
            <Button variant="danger" onClick={() => onConfirm(() => setOpen(false))} disabled={pending} className="bg-danger text-white hover:bg-danger/85">
              {pending ? <Spinner /> : <Trash2 aria-hidden className="size-4" />}
              {confirmLabel}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </>
  );
}
