import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

const here = path.dirname(new URL(import.meta.url).pathname);
export const screenshotDir = path.resolve(here, '../screenshots');

/** A screenshot of what the user sees, kept under e2e/screenshots for people to look at. */
export async function snap(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}

export function uniqueUser(prefix: string) {
  const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  return { userName: `${prefix}${id}`, email: `${prefix}${id}@example.com`, password: 'Str0ng!pass' };
}

/** Reads the password reset link the server wrote to its outbox for this address. */
export async function resetLinkFromOutbox(email: string, timeoutMs = 20_000): Promise<string> {
  const outbox = path.join(process.env['E2E_DATA_DIR'] ?? '', 'outbox');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = (await readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort().reverse();
    for (const file of files) {
      const mail = await readFile(path.join(outbox, file), 'utf8');
      if (!mail.includes(email)) continue;
      const unfolded = mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      const match = /https?:\/\/[^\s"<>]+\/reset-password\?[^\s"<>]+/.exec(unfolded);
      if (match) return match[0].replace(/&amp;/g, '&');
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no reset mail for ${email} in ${outbox}`);
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
