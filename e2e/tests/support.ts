import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

const here = path.dirname(new URL(import.meta.url).pathname);
export const screenshotDir = path.resolve(here, '../screenshots');

/**
 * A screenshot of what the user sees, kept under e2e/screenshots for people to look at.
 * The whole page by default; `{ fullPage: false }` for the window only, where fixed bars
 * (the player bar) sit where the user sees them.
 */
export async function snap(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: options.fullPage ?? true });
}

export function uniqueUser(prefix: string) {
  const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  return { userName: `${prefix}${id}`, email: `${prefix}${id}@example.com`, password: 'Str0ng!pass' };
}

/**
 * Waits for a mail to `email` in the server's outbox (DATA_DIR/outbox) and returns the first
 * link in it whose path matches `pathPattern` (quoted-printable soft breaks and `=3D` undone).
 */
export async function linkFromOutbox(email: string, pathPattern: RegExp, timeoutMs = 20_000): Promise<string> {
  const outbox = path.join(process.env['E2E_DATA_DIR'] ?? '', 'outbox');
  const linkPattern = new RegExp(`https?://[^\\s"<>]+${pathPattern.source}[^\\s"<>]*`);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = (await readdir(outbox).catch(() => [] as string[]))
      .filter((f) => f.endsWith('.eml'))
      .sort()
      .reverse();
    for (const file of files) {
      const mail = await readFile(path.join(outbox, file), 'utf8');
      if (!mail.includes(email)) continue;
      const unfolded = mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      const match = linkPattern.exec(unfolded);
      if (match) return match[0].replace(/&amp;/g, '&');
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no mail to ${email} with a link matching ${pathPattern} in ${outbox}`);
}

/** Reads the password reset link the server wrote to its outbox for this address. */
export function resetLinkFromOutbox(email: string, timeoutMs = 20_000): Promise<string> {
  return linkFromOutbox(email, /\/reset-password\?/, timeoutMs);
}

/** Reads the public share link of a song e-mailed to this address. */
export function shareLinkFromOutbox(email: string, timeoutMs = 20_000): Promise<string> {
  return linkFromOutbox(email, /\/share\//, timeoutMs);
}

/** Creates an account through the API (quicker than the form when the form is not under test). */
export async function signUpViaApi(request: APIRequestContext, user: { userName: string; email: string; password: string }): Promise<void> {
  const response = await request.post('/api/auth/signup', { data: user });
  if (!response.ok()) throw new Error(`sign-up failed: ${response.status()} ${await response.text()}`);
}

/**
 * Drops files on an element as a user dragging them from the desktop would: dragenter,
 * dragover and drop, carrying a DataTransfer with the files' real bytes.
 */
export async function dropFiles(page: Page, target: Locator, files: readonly string[], type = 'audio/mpeg'): Promise<void> {
  const payload = await Promise.all(files.map(async (file) => ({ name: path.basename(file), data: (await readFile(file)).toString('base64') })));
  const dataTransfer = await page.evaluateHandle(
    ({ items, mediaType }) => {
      const transfer = new DataTransfer();
      for (const item of items) {
        const bytes = Uint8Array.from(atob(item.data), (char) => char.charCodeAt(0));
        transfer.items.add(new File([bytes], item.name, { type: mediaType }));
      }
      return transfer;
    },
    { items: payload, mediaType: type },
  );
  // The element itself, not the locator: a drop zone often relabels itself while dragged over.
  const element = await target.elementHandle();
  if (!element) throw new Error('nothing to drop the files on');
  await element.dispatchEvent('dragenter', { dataTransfer });
  await element.dispatchEvent('dragover', { dataTransfer });
  await element.dispatchEvent('drop', { dataTransfer });
  await Promise.all([dataTransfer.dispose(), element.dispose()]);
}

export async function signUpThroughUi(page: Page, user: { userName: string; email: string; password: string }): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('Username').fill(user.userName);
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Sign Up', exact: true }).last().click();
  await expect(page).toHaveURL(/\/$/, { timeout: 15_000 });
}

export async function signInThroughUi(page: Page, user: { userName: string; password: string }): Promise<void> {
  await page.goto('/signin');
  await page.getByLabel('Username').fill(user.userName);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).last().click();
  await expect(page.getByText('You have successfully connected.')).toBeVisible({ timeout: 15_000 });
}

/**
 * Opens a dialog with `open` and checks that it stays centred while it opens: animations run a
 * thousand times slower meanwhile (Chromium's animation domain), the dialog's opening animation
 * is held at its first frame and at its last, and its centre is the viewport's at both (an
 * animated transform that also centred it once moved it off by half its size while it opened).
 */
export async function openCentred(page: Page, open: () => Promise<void>, dialog: Locator): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Animation.enable');
  await cdp.send('Animation.setPlaybackRate', { playbackRate: 0.001 });
  try {
    await open();
    await expect(dialog).toBeVisible();
    const offsets = await dialog.evaluate((element) => {
      const centre = () => {
        const box = element.getBoundingClientRect();
        return { x: box.left + box.width / 2 - window.innerWidth / 2, y: box.top + box.height / 2 - window.innerHeight / 2 };
      };
      const animations = element.getAnimations();
      for (const animation of animations) {
        animation.pause();
        animation.currentTime = 0;
      }
      const first = centre();
      for (const animation of animations) animation.finish();
      return { first, last: centre(), animated: animations.length > 0 };
    });
    expect(offsets.animated, 'the dialog has an opening animation').toBe(true);
    for (const [frame, offset] of [
      ['first', offsets.first],
      ['last', offsets.last],
    ] as const) {
      expect(Math.abs(offset.x), `horizontal offset from the centre at the ${frame} frame`).toBeLessThan(2);
      expect(Math.abs(offset.y), `vertical offset from the centre at the ${frame} frame`).toBeLessThan(16);
    }
  } finally {
    await cdp.send('Animation.setPlaybackRate', { playbackRate: 1 });
    await cdp.detach();
  }
}
