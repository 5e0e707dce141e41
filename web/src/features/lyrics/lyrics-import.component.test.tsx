import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { LyricsImport } from './lyrics-import.component';
import { codePage, HEBREW_LRC, utf16be, utf16le } from './lyrics-import.fixtures';

// A text box shows its text with LF line endings, as browsers do; the file's own text is sent.
const HEBREW_TEXT = HEBREW_LRC.replace(/\r\n/g, '\n');

function openDialog() {
  const onImport = vi.fn();
  render(<LyricsImport open onOpenChange={() => {}} maxLength={100_000} busy={false} onImport={onImport} />);
  const dialog = screen.getByRole('dialog', { name: 'Import lyrics' });
  const upload = (bytes: Uint8Array, name: string) =>
    userEvent.upload(dialog.querySelector<HTMLInputElement>('input[type="file"]')!, new File([bytes as BlobPart], name, { type: 'text/plain' }));
  return { dialog: within(dialog), upload, onImport };
}

describe('importing a lyrics file', { timeout: 20_000 }, () => {
  it('reads UTF-16 files, little- and big-endian, by their byte order mark', async () => {
    const { dialog, upload, onImport } = openDialog();
    await upload(utf16le(HEBREW_LRC), 'song.lrc');
    await waitFor(() => expect(dialog.getByRole('textbox', { name: 'Lyrics' })).toHaveValue(HEBREW_TEXT));
    expect(dialog.queryByRole('combobox', { name: 'File encoding' })).not.toBeInTheDocument();
    await upload(utf16be('[00:02.00]Big endian'), 'other.lrc');
    await waitFor(() => expect(dialog.getByRole('textbox', { name: 'Lyrics' })).toHaveValue('[00:02.00]Big endian'));
    await userEvent.click(dialog.getByRole('button', { name: 'Import' }));
    expect(onImport).toHaveBeenCalledWith('[00:02.00]Big endian');
  });

  it('lets the reader choose the code page of a file that is not Unicode, the text following the choice', async () => {
    const user = userEvent.setup();
    const { dialog, upload, onImport } = openDialog();
    await upload(codePage(HEBREW_LRC, 'windows-1255'), 'hebrew.lrc');
    const encoding = await dialog.findByRole('combobox', { name: 'File encoding' });
    expect(dialog.getByText('This file is not Unicode. Choose its encoding until the lyrics read right.')).toBeInTheDocument();
    expect(encoding).toHaveValue('windows-1255');
    const text = dialog.getByRole('textbox', { name: 'Lyrics' });
    expect(text).toHaveValue(HEBREW_TEXT);

    await user.selectOptions(encoding, 'Western European (Windows-1252, ISO-8859-1)');
    expect(text).toHaveValue('[ti:ùéø]\n[00:01.00]ùìåí òåìí\n[00:04.50]ìéìä èåá\n');
    await user.selectOptions(encoding, 'windows-1255');
    expect(text).toHaveValue(HEBREW_TEXT);
    await user.click(dialog.getByRole('button', { name: 'Import' }));
    expect(onImport).toHaveBeenCalledWith(HEBREW_LRC);

    // A Unicode file after it needs no choice.
    await upload(new TextEncoder().encode('[00:01.00]שלום'), 'utf8.lrc');
    await waitFor(() => expect(dialog.queryByRole('combobox', { name: 'File encoding' })).not.toBeInTheDocument());
    expect(text).toHaveValue('[00:01.00]שלום');
  });
});
