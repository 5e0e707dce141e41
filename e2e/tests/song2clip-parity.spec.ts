import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { apiToken, fixtureDir, makeSong, uploadViaApi } from './media.js';
import { screenshotDir, signInThroughUi, signUpViaApi, uniqueUser } from './support.js';

/**
 * Song2Clip parity (issue 13): the live preview draws the words with libass in WebAssembly from
 * the subtitle document the renderer burns in with ffmpeg's libass. The same settings and words,
 * drawn in the browser and rendered by the server, must put the text in the same place at the
 * same time: the box around the words, and the karaoke highlight as it moves from word to word
 * (a right-to-left Hebrew line included), at the top, in the centre and at the bottom.
 */

const run = promisify(execFile);
const FFMPEG = process.env['FFMPEG_PATH'] ?? '/usr/bin/ffmpeg';
/** The clip is 480p 16:9: frame pixels are what the offsets are measured in. */
const FRAME = { width: 854, height: 480 };
/** "Within a few pixels" of the 480p frame. */
const TOLERANCE_PX = 4;

/** Two lines on one screen: three English words, then two Hebrew ones (read right to left). */
const ELRC = ['[00:00.50]<00:00.50>Hello <00:01.20>bright <00:02.00>world.', '[00:02.80]<00:02.80>שלום <00:03.40>עולם'].join('\n');
/** Clip seconds to compare at: in "Hello", a tenth of a second either side of "bright" (1.2 s), in "שלום" and in "עולם". */
const TIMES = [0.8, 1.1, 1.3, 3.1, 3.6];

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

interface Measure {
  /** Everything that is not the flat picture: the background box, the words, their shadow. */
  text: Box | null;
  /** The highlight colour's pixels: the words sung so far. */
  highlight: Box | null;
  /** The same on the second line only (below the middle of the text): the Hebrew words, sung right to left. */
  secondLine: Box | null;
  /** The picture's colour near the left edge, half-way down. */
  background: readonly [number, number, number];
}

/** An image file's pixels as RGB (ffmpeg decodes it; the size is read from the PNG header). */
async function pixels(file: string): Promise<{ width: number; height: number; data: Buffer }> {
  const png = await readFile(file);
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const { stdout } = await run(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { width, height, data: stdout };
}

function grow(box: Box | null, x: number, y: number, sx: number, sy: number): Box {
  const pixel = { left: x * sx, top: y * sy, right: (x + 1) * sx, bottom: (y + 1) * sy };
  return box
    ? {
        left: Math.min(box.left, pixel.left),
        top: Math.min(box.top, pixel.top),
        right: Math.max(box.right, pixel.right),
        bottom: Math.max(box.bottom, pixel.bottom),
      }
    : pixel;
}

/** Bounding boxes in frame pixels: of what differs from the flat picture (sampled near the left edge), and of the highlight's yellow. */
async function measure(file: string): Promise<Measure> {
  const { width, height, data } = await pixels(file);
  const at = (x: number, y: number) => {
    const i = (y * width + x) * 3;
    return [data[i]!, data[i + 1]!, data[i + 2]!] as const;
  };
  const background = at(Math.round(width * 0.02), Math.round(height / 2));
  const sx = FRAME.width / width;
  const sy = FRAME.height / height;
  let text: Box | null = null;
  let highlight: Box | null = null;
  const yellow: [number, number][] = [];
  // Not the outermost 2 %: the preview's rounded corners show the page there (the text keeps 5 % away from the edges).
  const insetX = Math.ceil(width * 0.02);
  const insetY = Math.ceil(height * 0.02);
  for (let y = insetY; y < height - insetY; y++) {
    for (let x = insetX; x < width - insetX; x++) {
      const [r, g, b] = at(x, y);
      if (Math.abs(r - background[0]) + Math.abs(g - background[1]) + Math.abs(b - background[2]) > 60) text = grow(text, x, y, sx, sy);
      // #ffd54f: red and green high, blue well below them (white text has all three high; the
      // encoder's half-resolution colour leaves a small glyph such as a full stop paler).
      if (r > 150 && g > 110 && r - b > 50) {
        highlight = grow(highlight, x, y, sx, sy);
        yellow.push([x, y]);
      }
    }
  }
  let secondLine: Box | null = null;
  const middle = text ? (text.top + text.bottom) / 2 : Infinity;
  for (const [x, y] of yellow) if (y * sy > middle) secondLine = grow(secondLine, x, y, sx, sy);
  return { text, highlight, secondLine, background };
}

function offset(a: Box | null, b: Box | null): number {
  if (!a || !b) return a === b ? 0 : Infinity;
  return Math.max(Math.abs(a.left - b.left), Math.abs(a.top - b.top), Math.abs(a.right - b.right), Math.abs(a.bottom - b.bottom));
}

const round = (box: Box | null) => box && Object.fromEntries(Object.entries(box).map(([k, v]) => [k, Math.round(v * 10) / 10]));

/** Moves the preview to `seconds` into the clip and waits until libass has drawn that time and the page shows it. */
async function previewAt(page: Page, seconds: number, file: string): Promise<Measure> {
  await page.getByRole('slider', { name: 'Preview position' }).fill(String(seconds));
  const preview = page.getByTestId('clip-preview');
  await expect.poll(async () => Number(await preview.getAttribute('data-text-time'))).toBeCloseTo(seconds, 3);
  // The worker's canvas reaches the screen with the next frames: measure until two shots agree.
  // The top bar is fixed: with the page at its top it covers nothing of the preview.
  await page.evaluate(() => window.scrollTo(0, 0));
  let previous: Measure | null = null;
  for (let attempt = 0; attempt < 10; attempt++) {
    await preview.screenshot({ path: file });
    const current = await measure(file);
    if (previous && JSON.stringify(previous) === JSON.stringify(current)) return current;
    previous = current;
    await page.waitForTimeout(100);
  }
  return previous!;
}

async function renderedAt(video: string, seconds: number, file: string): Promise<Measure> {
  await run(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', '-ss', String(seconds), '-i', video, '-frames:v', '1', file]);
  return measure(file);
}

/** Opens an accordion of the Text tab unless its content shows already. */
async function openSection(page: Page, title: string, content: ReturnType<Page['getByRole']>) {
  if (!(await content.isVisible())) await page.getByText(title, { exact: true }).click();
}

/** The three comparisons: each a text position and a style (kept from one to the next unless changed). */
const CASES: { position: 'Top' | 'Center' | 'Bottom'; style: string; apply: (page: Page) => Promise<void> }[] = [
  { position: 'Top', style: 'the defaults: sans-serif 24 px, background box, shadow, fade', apply: async () => undefined },
  {
    position: 'Center',
    style: 'serif, bold, 36 px, no background, no shadow',
    apply: async (page) => {
      await page.getByLabel('Font family').selectOption('serif');
      await page.getByRole('button', { name: 'Bold' }).click();
      await page.getByRole('slider', { name: 'Font size' }).fill('36');
      await page.getByRole('switch', { name: 'Text shadow' }).click();
      const background = page.getByRole('switch', { name: 'Show background' });
      await openSection(page, 'Text Background', background);
      await background.click();
    },
  },
  {
    position: 'Bottom',
    style: 'cursive (the Hebrew line in the sans face), 28 px, background box, no shadow',
    apply: async (page) => {
      await page.getByLabel('Font family').selectOption('cursive');
      await page.getByRole('button', { name: 'Bold' }).click();
      await page.getByRole('slider', { name: 'Font size' }).fill('28');
      await page.getByRole('switch', { name: 'Show background' }).click();
    },
  },
];

test('the preview draws the words where and when the render does', async ({ page, request }) => {
  // Three renders on a shared machine.
  test.setTimeout(600_000);
  const user = uniqueUser('parity');
  await signUpViaApi(request, user);
  const dir = await fixtureDir();
  const title = `Parity Song ${user.userName}`;
  const token = await apiToken(request, user);
  const id = await uploadViaApi(request, token, await makeSong(dir, { title, artist: 'Encore Band', seconds: 6, frequency: 300 }));
  expect((await request.put(`/api/files/${id}/lyrics`, { headers: { authorization: `Bearer ${token}` }, data: { transcript: ELRC } })).ok()).toBe(true);
  // A flat picture: anything else in a frame is the text.
  const picture = path.join(dir, 'flat.png');
  await run(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x3060a0:s=960x540:d=1', '-frames:v', '1', picture]);
  const work = await mkdtemp(path.join(tmpdir(), 'encore-parity-'));

  // libass runs under the page's content policy: WebAssembly and a worker of our own, nothing broader.
  const policy = (await request.get('/song2clip')).headers()['content-security-policy'] ?? '';
  expect(policy).toMatch(/script-src 'self' 'wasm-unsafe-eval' [^;]*;/);
  expect(policy).not.toMatch(/'unsafe-eval'/);
  expect(policy).toContain("worker-src 'self'");
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });

  await signInThroughUi(page, user);
  await page.goto('/song2clip');
  await page.getByRole('searchbox', { name: 'Search songs' }).fill(title);
  await page.getByRole('button', { name: new RegExp(title) }).click();
  await expect(page.getByText('5 timed words from the lyrics')).toBeVisible();
  await page.getByLabel('Choose pictures or a video').setInputFiles([picture]);
  await page.getByRole('tab', { name: 'Effects' }).click();
  await page.getByText('Video Settings').click();
  await page.getByLabel('Quality').selectOption('low');
  await page.getByLabel('End (s)').fill('4');
  await expect(page.getByTestId('clip-preview')).toHaveAttribute('data-text-state', 'ready', { timeout: 30_000 });

  const rows: { position: string; seconds: number; preview: Measure; render: Measure }[] = [];
  for (const { position, apply } of CASES) {
    await page.getByRole('tab', { name: 'Text' }).click();
    await apply(page);
    const positions = page.getByRole('group', { name: 'Text position' });
    await openSection(page, 'Text Position', positions);
    await positions.getByRole('button', { name: position, exact: true }).click();

    const previewed: Measure[] = [];
    for (const seconds of TIMES) previewed.push(await previewAt(page, seconds, path.join(work, `preview-${position}-${seconds}.png`)));
    await page.getByTestId('clip-preview').screenshot({ path: path.join(screenshotDir, `song2clip-parity-${position.toLowerCase()}.png`) });

    await page.getByRole('button', { name: 'Create Clip' }).click();
    await expect(page.getByRole('heading', { name: 'Created Clip Preview' })).toBeVisible({ timeout: 300_000 });
    const src = await page.getByTestId('created-clip-video').getAttribute('src');
    const video = path.join(work, `clip-${position}.mp4`);
    await writeFile(video, await (await page.request.get(src!)).body());
    for (const [index, seconds] of TIMES.entries()) {
      rows.push({
        position,
        seconds,
        preview: previewed[index]!,
        render: await renderedAt(video, seconds, path.join(work, `render-${position}-${seconds}.png`)),
      });
    }
    await page.getByRole('button', { name: 'Back to the editor' }).click();
    await expect(page.getByTestId('clip-preview')).toHaveAttribute('data-text-state', 'ready', { timeout: 30_000 });
  }

  expect(refused).toEqual([]);

  // The figures, then the rules: every box within a few pixels of the render's, at every time.
  const figures = rows.map(({ position, seconds, preview, render }) => ({
    position,
    seconds,
    text: Math.round(offset(preview.text, render.text) * 10) / 10,
    highlight: Math.round(offset(preview.highlight, render.highlight) * 10) / 10,
    secondLine: Math.round(offset(preview.secondLine, render.secondLine) * 10) / 10,
  }));
  console.log(`Largest edge offsets, preview vs render, in 480p frame pixels (frames in ${work}):`);
  console.table(figures);
  for (const { position, seconds, preview, render } of rows) {
    const where = `${position} at ${seconds} s: preview ${JSON.stringify({ text: round(preview.text), highlight: round(preview.highlight), secondLine: round(preview.secondLine) })}, render ${JSON.stringify({ text: round(render.text), highlight: round(render.highlight), secondLine: round(render.secondLine) })}`;
    expect(preview.text, where).not.toBeNull();
    expect(offset(preview.text, render.text), where).toBeLessThanOrEqual(TOLERANCE_PX);
    expect(offset(preview.highlight, render.highlight), where).toBeLessThanOrEqual(TOLERANCE_PX);
    expect(offset(preview.secondLine, render.secondLine), where).toBeLessThanOrEqual(TOLERANCE_PX);
  }
  // And the measures mean something: the highlight moves on at "bright" (1.2 s) in both, and the
  // Hebrew line is sung from its right end.
  for (const { position } of CASES) {
    for (const side of ['preview', 'render'] as const) {
      const at = (seconds: number) => rows.find((row) => row.position === position && row.seconds === seconds)![side];
      expect(at(1.3).highlight!.right, `${position} ${side}`).toBeGreaterThan(at(1.1).highlight!.right + 20);
      expect(at(1.3).secondLine, `${position} ${side}`).toBeNull();
      const first = at(3.1).secondLine!;
      expect((first.left + first.right) / 2, `${position} ${side}`).toBeGreaterThan(FRAME.width / 2);
      expect(at(3.6).secondLine!.left, `${position} ${side}`).toBeLessThan(first.left - 20);
    }
  }
});

/** Two untimed lines: SPEC 9's rule spreads them over the 6 s song, 0-3 s and 3-6 s. */
const UNTIMED = 'Hello bright world\nSecond line here';

test('a song with untimed lyrics: the preview draws its lines, and changes pictures, where and when the render does', async ({ page, request }) => {
  test.setTimeout(300_000);
  const user = uniqueUser('untimed');
  await signUpViaApi(request, user);
  const dir = await fixtureDir();
  const title = `Untimed Song ${user.userName}`;
  const token = await apiToken(request, user);
  const id = await uploadViaApi(request, token, await makeSong(dir, { title, artist: 'Encore Band', seconds: 6, frequency: 330 }));
  expect((await request.put(`/api/files/${id}/lyrics`, { headers: { authorization: `Bearer ${token}` }, data: { transcript: UNTIMED } })).ok()).toBe(true);
  const pictures = [path.join(dir, 'untimed-red.png'), path.join(dir, 'untimed-blue.png')];
  for (const [file, colour] of [
    [pictures[0]!, '0xc03030'],
    [pictures[1]!, '0x3050c0'],
  ] as const) {
    await run(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `color=c=${colour}:s=960x540:d=1`, '-frames:v', '1', file]);
  }
  const work = await mkdtemp(path.join(tmpdir(), 'encore-parity-untimed-'));

  await signInThroughUi(page, user);
  await page.goto('/song2clip');
  await page.getByRole('searchbox', { name: 'Search songs' }).fill(title);
  await page.getByRole('button', { name: new RegExp(title) }).click();
  await expect(page.getByText('No timed words yet: the lyrics text is spread over the clip.')).toBeVisible();
  await page.getByLabel('Choose pictures or a video').setInputFiles(pictures);
  await page.getByRole('tab', { name: 'Effects' }).click();
  await page.getByText('Video Settings').click();
  await page.getByLabel('Quality').selectOption('low');
  await page.getByLabel('End (s)').fill('4');
  await expect(page.getByTestId('clip-preview')).toHaveAttribute('data-text-state', 'ready', { timeout: 30_000 });

  // Line one on the red picture; the fade to blue (2 s to 2.8 s, the render's 0.8 s at the picture's start) half-way; line two on blue.
  const times = [1, 2.4, 3.5];
  const previewed: Measure[] = [];
  for (const seconds of times) previewed.push(await previewAt(page, seconds, path.join(work, `preview-${seconds}.png`)));
  await page.getByTestId('clip-preview').screenshot({ path: path.join(screenshotDir, 'song2clip-parity-untimed.png') });

  await page.getByRole('button', { name: 'Create Clip' }).click();
  await expect(page.getByRole('heading', { name: 'Created Clip Preview' })).toBeVisible({ timeout: 240_000 });
  const src = await page.getByTestId('created-clip-video').getAttribute('src');
  const video = path.join(work, 'clip.mp4');
  await writeFile(video, await (await page.request.get(src!)).body());

  for (const [index, seconds] of times.entries()) {
    const preview = previewed[index]!;
    const render = await renderedAt(video, seconds, path.join(work, `render-${seconds}.png`));
    const where = `at ${seconds} s: preview ${JSON.stringify({ text: round(preview.text), background: preview.background })}, render ${JSON.stringify({ text: round(render.text), background: render.background })} (frames in ${work})`;
    expect(render.text, where).not.toBeNull();
    expect(preview.text, where).not.toBeNull();
    expect(offset(preview.text, render.text), where).toBeLessThanOrEqual(TOLERANCE_PX);
    for (const channel of [0, 1, 2]) expect(Math.abs(preview.background[channel]! - render.background[channel]!), where).toBeLessThanOrEqual(24);
  }
  // The lines are the song's, one after the other: the second is not the first.
  expect(offset(previewed[0]!.text, previewed[2]!.text)).toBeGreaterThan(TOLERANCE_PX);
  // Half-way through the fade, neither picture alone.
  const [r, , b] = previewed[1]!.background;
  expect(r).toBeGreaterThan(90);
  expect(b).toBeGreaterThan(90);
});
