import { LYRICS_IMPORT_MAX_BYTES } from '@encore/common/lyrics.contract';
import { decodeLegacy, decodeLyricsBytes, type LegacyEncoding } from '@encore/common/lyrics-text.decode';
import { FileUp } from 'lucide-react';
import { useId, useState } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../components/ui/dialog';
import { Button } from '../../components/ui/button';
import { Label } from '../../components/ui/label';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';
import { formatFileSize } from '../../lib/file-size.format';
import { useLanguage, useT } from '../../lib/i18n/i18n.store';
import { guessLegacyEncoding, LEGACY_ENCODINGS, readBytes } from './lyrics-import.decode';

interface LyricsImportProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The largest text the server takes, in characters. */
  maxLength: number;
  busy: boolean;
  onImport: (text: string) => void;
}

/**
 * Import (issue 11): paste or upload LRC, enhanced LRC, SRT or plain text. The server tells the
 * formats apart by their time tags; the text goes as it is, so nothing is lost on the way. A
 * file is read as UTF-8 or UTF-16 when it is Unicode; otherwise the reader picks its code page,
 * the text below showing each choice.
 */
export function LyricsImport({ open, onOpenChange, maxLength, busy, onImport }: LyricsImportProps) {
  const t = useT();
  const language = useLanguage();
  const id = useId();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  /** The bytes of an uploaded file that is not Unicode, and the code page it is read with. */
  const [legacy, setLegacy] = useState<{ bytes: Uint8Array; encoding: LegacyEncoding } | null>(null);

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > LYRICS_IMPORT_MAX_BYTES) {
      setProblem(t('lyricsImportTooLarge', { size: formatFileSize(LYRICS_IMPORT_MAX_BYTES) }));
      return;
    }
    try {
      const bytes = await readBytes(file);
      const decoded = decodeLyricsBytes(bytes);
      if (decoded.kind === 'unicode') {
        setLegacy(null);
        setText(decoded.text);
      } else {
        const encoding = guessLegacyEncoding(bytes, language);
        setLegacy({ bytes, encoding });
        setText(decodeLegacy(bytes, encoding));
      }
      setProblem(null);
    } catch {
      setProblem(t('lyricsImportUnreadable'));
    }
  };

  const chooseEncoding = (encoding: LegacyEncoding) => {
    if (!legacy) return;
    setLegacy({ ...legacy, encoding });
    setText(decodeLegacy(legacy.bytes, encoding));
  };

  const submit = () => {
    if (!text.trim()) return setProblem(t('lyricsImportEmpty'));
    if (text.length > maxLength) return setProblem(t('lyricsTooLong', { max: maxLength.toLocaleString() }));
    setProblem(null);
    onImport(text);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent closeLabel={t('close')} className="max-w-xl">
        <DialogTitle className="text-xl font-bold">{t('lyricsImportTitle')}</DialogTitle>
        <DialogDescription className="mt-1 text-sm text-muted">{t('lyricsImportBody')}</DialogDescription>
        <div className="mt-4 flex flex-col gap-3">
          <Label htmlFor={`${id}-text`}>{t('lyricsImportPaste')}</Label>
          <Textarea
            id={`${id}-text`}
            dir="auto"
            rows={10}
            value={text}
            placeholder={t('lyricsImportPlaceholder')}
            aria-invalid={problem !== null || undefined}
            className="font-mono text-sm"
            onChange={(event) => {
              setText(event.currentTarget.value);
              setProblem(null);
            }}
          />
          <label className="inline-flex w-fit cursor-pointer items-center gap-2 rounded-xl px-3 py-2 text-sm font-semibold ring-1 ring-border hover:bg-white/5 focus-within:ring-2 focus-within:ring-ring">
            <FileUp aria-hidden className="size-4" />
            {t('lyricsImportFile')}
            <input
              type="file"
              accept=".lrc,.elrc,.srt,.txt,text/plain,application/x-subrip"
              className="sr-only"
              onChange={(event) => {
                void readFile(event.currentTarget.files?.[0]);
                event.currentTarget.value = '';
              }}
            />
          </label>
          {legacy ? (
            <div className="flex flex-col gap-1.5">
              <Label htmlFor={`${id}-encoding`}>{t('lyricsImportEncoding')}</Label>
              <select
                id={`${id}-encoding`}
                aria-describedby={`${id}-encoding-hint`}
                className="h-10 w-full rounded-xl border border-border bg-input px-3 text-sm text-foreground outline-none focus-visible:ring-2 focus-visible:ring-ring"
                value={legacy.encoding}
                onChange={(event) => chooseEncoding(event.currentTarget.value as LegacyEncoding)}
              >
                {LEGACY_ENCODINGS.map((option) => (
                  <option key={option.encoding} value={option.encoding}>
                    {t(option.label)}
                  </option>
                ))}
              </select>
              <p id={`${id}-encoding-hint`} className="text-xs text-muted">
                {t('lyricsImportEncodingHint')}
              </p>
            </div>
          ) : null}
          {problem ? (
            <p role="alert" className="text-sm text-danger">
              {problem}
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button variant="ghost" onClick={() => onOpenChange(false)}>
              {t('lyricsCancel')}
            </Button>
            <Button onClick={submit} disabled={busy}>
              {busy ? <Spinner /> : null}
              {t('lyricsImportSubmit')}
            </Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
