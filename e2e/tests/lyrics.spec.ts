import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiToken, fixtureDir, makeSong, uploadViaApi } from './media.js';
import { signInThroughUi, signUpViaApi, snap, uniqueUser } from './support.js';
import { STAND_IN_WORDS } from './stand-in-words.js';

/**
 * Lyrics in a real browser (issue 11): import enhanced LRC and sing along in karaoke with the
 * highlight following the audio, edit and save, export ELRC; fix a word's timing on the
 * waveform and by typing, and find it kept after a reload.
 */

const run = Date.now().toString(36).slice(-5);

// Each journey plays real audio for several seconds and decodes a waveform: more than the default minute on a busy machine.
test.setTimeout(180_000);

/** Six lines two seconds apart, every word timed: what a karaoke file gives. */
const ELRC = [
  '[00:00.50]<00:00.50>First <00:01.00>line <00:01.50>here',
  '[00:02.50]<00:02.50>Second <00:03.00>line <00:03.60>sung',
  '[00:04.50]<00:04.50>Third <00:05.00>line <00:05.60>now',
  '[00:06.50]<00:06.50>Fourth <00:07.00>line <00:07.60>goes',
  '[00:08.50]<00:08.50>Fifth <00:09.00>line <00:09.60>on',
  '[00:10.50]<00:10.50>Last <00:11.00>line <00:11.50>ends',
].join('\n');

async function accountWithSong(request: APIRequestContext, prefix: string, lyrics?: string) {
  const user = uniqueUser(prefix);
  await signUpViaApi(request, user);
  const dir = await fixtureDir();
  const file = await makeSong(dir, { title: `Sing ${prefix} ${run}`, artist: 'Encore Choir', seconds: 14, cover: 'purple', frequency: 330 });
  const token = await apiToken(request, user);
  const id = await uploadViaApi(request, token, file);
  if (lyrics) {
    const response = await request.put(`/api/files/${id}/lyrics`, { headers: { authorization: `Bearer ${token}` }, data: { transcript: lyrics } });
    expect(response.ok()).toBe(true);
  }
  return { user, id, token };
}

/** The audio clock and the line the karaoke view highlights, read in one go. */
async function karaokeState(page: Page) {
  return page.evaluate(() => {
    const audio = document.querySelector<HTMLAudioElement>('audio[data-encore-player]');
    const lines = Array.from(document.querySelectorAll<HTMLElement>('[data-testid="karaoke-lines"] [data-line-index]'));
    const starts = lines.map((line) => Number(line.dataset['start']));
    const time = audio?.currentTime ?? 0;
    const expected = starts.filter((start) => start <= time).length - 1;
    const active = lines.findIndex((line) => line.dataset['active'] === 'true');
    // How long ago the expected line began: the highlight may be a frame or two behind it.
    const sinceStart = expected >= 0 ? time - starts[expected]! : Number.POSITIVE_INFINITY;
    return { time, expected, active, sinceStart, paused: audio?.paused ?? true };
  });
}

test('import enhanced LRC, sing along in karaoke, edit and save, export ELRC', async ({ page, request }) => {
  const { user, id } = await accountWithSong(request, 'karaoke');
  await signInThroughUi(page, user);
  await page.goto(`/music/${id}`);
  const panel = page.getByTestId('lyrics-panel');
  await expect(panel.getByText('No lyrics yet')).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByRole('button', { name: 'Transcribe Lyrics with AI' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Find lyrics online' })).toBeVisible();
  await snap(page, 'lyrics-empty');

  await panel.getByRole('button', { name: 'Import' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import lyrics' });
  await dialog.getByRole('textbox').fill(ELRC);
  await snap(page, 'lyrics-import', { fullPage: false });
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByText('Lyrics saved successfully!')).toBeVisible();
  await expect(panel.getByText('Second line sung')).toBeVisible();
  await expect(panel.getByTestId('lyrics-counts')).toContainText('6 lines');
  await expect(panel.getByText('Imported · Timed word by word')).toBeVisible();

  // Karaoke: the highlighted line follows the audio as it plays.
  await panel.getByRole('button', { name: 'Karaoke' }).click();
  await expect(page.getByText('Karaoke mode activated! Lyrics will highlight in sync with the music.')).toBeVisible();
  await page.getByRole('button', { name: 'Play', exact: true }).first().click();
  const seen = new Set<number>();
  await expect
    .poll(
      async () => {
        const state = await karaokeState(page);
        if (!state.paused && state.time > 0.6) {
          // The line the audio is in, or (within a quarter second of a new line) the one before.
          const lagging = state.active === state.expected - 1 && state.sinceStart < 0.25;
          expect(lagging || state.active === state.expected, JSON.stringify(state)).toBe(true);
          if (!lagging) seen.add(state.active);
        }
        return seen.size;
      },
      { timeout: 40_000, intervals: [150] },
    )
    .toBeGreaterThanOrEqual(3);
  // The word being sung fills as it is sung.
  await expect
    .poll(() =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLElement>('[data-active="true"] .karaoke-word')).some((word) =>
          /^(?!0%)\d/.test(word.style.getPropertyValue('--fill')),
        ),
      ),
    )
    .toBe(true);
  await snap(page, 'lyrics-karaoke');

  // A click on a line plays from there.
  await panel.getByRole('button', { name: 'Play from "Fifth line on"' }).click();
  await expect.poll(async () => (await karaokeState(page)).time).toBeGreaterThanOrEqual(8.5);
  await expect(panel.locator('[data-active="true"]')).toContainText('Fifth line on');

  // The full-screen sing-along view.
  await panel.getByRole('button', { name: 'Sing along' }).click();
  const singAlong = page.getByTestId('sing-along');
  await expect(singAlong.getByText('Sing karaoke', { exact: false })).toBeVisible();
  await expect(singAlong.locator('[data-active="true"]')).toBeVisible();
  await snap(page, 'lyrics-sing-along', { fullPage: false });
  await singAlong.getByRole('button', { name: 'Close sing-along' }).click();
  await page.getByRole('button', { name: 'Pause', exact: true }).first().click();

  // Edit and save: the changed line is timed again, the others keep their times.
  await panel.getByRole('button', { name: 'Karaoke' }).click();
  await panel.getByRole('button', { name: 'Edit' }).click();
  const box = panel.getByRole('textbox', { name: 'Lyrics text' });
  await box.fill(ELRC.replace(/\[[^\]]+\]|<[^>]+>/g, '').replace('Third line now', 'Third verse now'));
  await snap(page, 'lyrics-edit');
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Lyrics saved successfully!')).toBeVisible();
  await expect(panel.getByText('Third verse now')).toBeVisible();

  // Export as enhanced LRC: a file with the word times.
  await panel.getByRole('button', { name: 'Export' }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Enhanced LRC (timed words)' }).click()]);
  const exported = await readFile((await download.path())!, 'utf8');
  expect(download.suggestedFilename()).toMatch(/\.lrc$/);
  expect(exported).toContain('[00:02.50]<00:02.50>Second <00:03.00>line');
  expect(exported).toMatch(/verse/);
});

test('fix a word on the waveform and by typing; the timing is kept after a reload', async ({ page, request }) => {
  const { user, id } = await accountWithSong(request, 'words', ELRC);
  await signInThroughUi(page, user);
  await page.goto(`/music/${id}`);
  await page.getByTestId('lyrics-panel').getByRole('link', { name: 'Word timings' }).click();
  await expect(page).toHaveURL(new RegExp(`/music/${id}/words$`));
  await expect(page.getByRole('heading', { name: 'Word Timing Editor' })).toBeVisible();
  await expect(page.getByTestId('word-row')).toHaveCount(18, { timeout: 30_000 });

  // The waveform draws, with each word a region.
  const waveform = page.getByTestId('word-waveform');
  const region = waveform.getByText('Second', { exact: true });
  await expect(region).toBeVisible({ timeout: 90_000 });
  await snap(page, 'word-editor');

  // Drag "Second" to the right on the waveform: its start follows.
  const start = page.getByRole('spinbutton', { name: 'Start of "Second"' });
  await expect(start).toHaveValue('2.5');
  await region.scrollIntoViewIfNeeded();
  const box = (await region.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  for (let step = 1; step <= 10; step += 1) await page.mouse.move(box.x + box.width / 2 + step * 4, box.y + box.height / 2);
  await page.mouse.up();
  await expect.poll(async () => Number(await start.inputValue())).toBeGreaterThan(2.7);
  const dragged = Number(await start.inputValue());

  // And type the end of "sung".
  const end = page.getByRole('spinbutton', { name: 'End of "sung"' });
  await end.fill('4.3');
  await expect(page.getByTestId('word-editor-status')).toContainText('Unsaved changes');
  // A bad time is refused with a message, and Save waits.
  const otherEnd = page.getByRole('spinbutton', { name: 'End of "Third"' });
  await otherEnd.fill('1');
  await expect(page.getByText("A word's end must not be before its start")).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await otherEnd.fill('4.9');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Word timings saved')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('spinbutton', { name: 'Start of "Second"' })).toHaveValue(String(dragged), { timeout: 30_000 });
  await expect(page.getByRole('spinbutton', { name: 'End of "sung"' })).toHaveValue('4.3');
  await expect(page.getByRole('spinbutton', { name: 'End of "Third"' })).toHaveValue('4.9');

  // The preview plays the real audio and shows the words being sung, styled.
  await page.getByRole('spinbutton', { name: 'Start of "First"' }).focus();
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(page.getByTestId('word-preview-text')).toBeVisible({ timeout: 10_000 });
  await page.getByLabel('Font', { exact: true }).selectOption('serif');
  await expect(page.getByTestId('word-preview-text')).toHaveCSS('font-family', 'serif');
  await snap(page, 'word-editor-playing', { fullPage: false });
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
});

test('word timings for lyrics that have none: the editor starts from every word, and saving an added word keeps every line', async ({ page, request }) => {
  const plain = '[Verse]\nFirst line here\nSecond line sung\n\n[Chorus]\nLast line ends';
  const { user, id, token } = await accountWithSong(request, 'plainwords', plain);
  await signInThroughUi(page, user);
  await page.goto(`/music/${id}/words`);
  await expect(page.getByTestId('word-row')).toHaveCount(9, { timeout: 30_000 });
  await expect(page.getByTestId('word-editor-status')).toContainText('9 words · All changes saved');
  await expect(page.getByTestId('word-editor-estimated')).toBeVisible();
  const firstStart = Number(await page.getByRole('spinbutton', { name: 'Start of "First"' }).inputValue());
  const lastEnd = Number(await page.getByRole('spinbutton', { name: 'End of "ends"' }).inputValue());
  expect(firstStart).toBeGreaterThan(0);
  expect(lastEnd).toBeGreaterThan(13);

  await page.getByRole('button', { name: 'Add a word after "sung"' }).click();
  await expect(page.getByTestId('word-row')).toHaveCount(10);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Word timings saved')).toBeVisible();
  const stored = (await (await request.get(`/api/files/${id}/lyrics`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
    text: string;
    timing: string;
  };
  expect(stored).toMatchObject({ text: '[Verse]\nFirst line here\nSecond line sung New\n\n[Chorus]\nLast line ends', timing: 'word' });

  await page.goto(`/music/${id}`);
  const panel = page.getByTestId('lyrics-panel');
  await expect(panel.getByText('Second line sung New')).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByText('Last line ends')).toBeVisible();
  await expect(panel.getByTestId('lyrics-counts')).toContainText('5 lines');
});

test('the lyrics and the word editor on a phone and in Hebrew', async ({ page, request }) => {
  const { user, id } = await accountWithSong(request, 'phone', ELRC);
  await signInThroughUi(page, user);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/music/${id}`);
  const panel = page.getByTestId('lyrics-panel');
  await expect(panel.getByText('Second line sung')).toBeVisible({ timeout: 30_000 });
  await panel.scrollIntoViewIfNeeded();
  await snap(page, 'lyrics-phone');
  await page.goto(`/music/${id}/words`);
  await expect(page.getByTestId('word-row')).toHaveCount(18, { timeout: 30_000 });
  await snap(page, 'word-editor-phone');

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => localStorage.setItem('language', 'he'));
  await page.goto(`/music/${id}`);
  await expect(panel.getByRole('heading', { name: 'מילים' })).toBeVisible();
  await panel.getByRole('button', { name: 'קריוקי' }).click();
  await expect(page.getByText('מצב קריוקי הופעל! המילים יודגשו בסנכרון עם המוזיקה.')).toBeVisible();
  await snap(page, 'lyrics-hebrew');
  await page.goto(`/music/${id}/words`);
  await expect(page.getByRole('heading', { name: 'עורך תזמון מילים' })).toBeVisible();
  await snap(page, 'word-editor-hebrew');
});

test('transcribe with the configured engine: real progress, then the words at their times', async ({ page, request }) => {
  const user = uniqueUser('transcribe');
  await signUpViaApi(request, user);
  const dir = await fixtureDir();
  // One loud burst per word the engine will hear, a second apart from 1 s.
  const file = await makeSong(dir, { title: `Heard ${run}`, artist: 'Encore Choir', seconds: 10, frequency: 300, bursts: STAND_IN_WORDS.length });
  const token = await apiToken(request, user);
  const id = await uploadViaApi(request, token, file);
  await signInThroughUi(page, user);

  await page.goto(`/music/${id}`);
  const panel = page.getByTestId('lyrics-panel');
  await panel.getByRole('button', { name: 'Transcribe Lyrics with AI' }).click();
  const progress = panel.getByTestId('lyrics-transcribing');
  await expect(progress).toBeVisible();
  await expect(progress).toContainText('Transcribing lyrics…');
  await snap(page, 'lyrics-transcribing');
  await expect(page.getByText('Lyrics transcribed successfully!')).toBeVisible({ timeout: 60_000 });
  for (const word of STAND_IN_WORDS) await expect(panel).toContainText(word);
  await expect(panel.getByText(/Transcribed/).first()).toBeVisible();

  // The words carry the times the engine heard them at: a burst a second from 1 s.
  const words = (await (await request.get(`/api/files/${id}/lyrics`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
    words: { text: string; start: number }[];
  };
  expect(words.words.map((word) => word.text)).toEqual(STAND_IN_WORDS);
  words.words.forEach((word, index) => expect(Math.abs(word.start - (1 + index))).toBeLessThan(0.15));
});
