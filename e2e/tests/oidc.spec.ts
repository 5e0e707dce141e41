import { expect, test, type Page } from '@playwright/test';
import { SSO_ADMIN_GROUP, SSO_BUTTON_TEXT, startSsoEncore, type SsoEncore } from '../oidc-encore.js';
import { snap } from './support.js';

/**
 * Single sign-on with OpenID Connect in a real browser: Encore's auth screen, a real provider's
 * login page on loopback, and back, against an Encore of its own (oidc-encore.ts).
 */
test.describe('single sign-on (OpenID Connect)', () => {
  let sso: SsoEncore;

  test.beforeAll(async ({ request }) => {
    sso = await startSsoEncore({
      ada: { email: 'ada@idp.example', email_verified: true, name: 'Ada Lovelace', preferred_username: 'ada' },
      grace: { email: 'grace@idp.example', email_verified: true, preferred_username: 'grace', groups: [SSO_ADMIN_GROUP] },
      joan: { email: 'joan@idp.example', email_verified: true, preferred_username: 'joan' },
    });
    // The instance's first account, its admin, signs up with a password; so does someone who
    // uses Joan's address and never verifies it.
    for (const [userName, email] of [
      ['owner', 'owner@example.test'],
      ['squatter', 'joan@idp.example'],
    ]) {
      const response = await request.post(`${sso.baseUrl}/api/auth/signup`, { data: { userName, email, password: 'Str0ng!pass' } });
      expect(response.status()).toBe(201);
    }
  });
  test.afterAll(async () => {
    await sso?.stop();
  });

  async function signInAtProvider(page: Page, login: string) {
    await expect(page.getByRole('heading', { name: 'Test identity provider' })).toBeVisible();
    await page.getByLabel('User name').fill(login);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  async function profileOf(page: Page) {
    return page.evaluate(async () => {
      const token = localStorage.getItem('token') ?? sessionStorage.getItem('token');
      const response = await fetch('/api/auth/profile', { headers: { authorization: `Bearer ${token ?? ''}` } });
      return (await response.json()) as { userName: string; email: string; role: string; emailVerified: boolean };
    });
  }

  test('signs in through the provider, creates the account, and comes back where it started', async ({ page }) => {
    await page.goto(`${sso.baseUrl}/signin?next=/playlists`);
    const button = page.getByRole('button', { name: SSO_BUTTON_TEXT });
    await expect(button).toBeVisible();
    await snap(page, 'signin-sso');

    await button.click();
    await expect(page).toHaveURL(new RegExp(`^${sso.provider.issuer}/interaction/`));
    await signInAtProvider(page, 'ada');

    await expect(page).toHaveURL(`${sso.baseUrl}/playlists`, { timeout: 15_000 });
    await expect(page.getByText('You have successfully connected.')).toBeVisible();
    await page.getByRole('button', { name: 'Open profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'User Profile' });
    await expect(dialog.getByText('ada@idp.example')).toBeVisible();
    expect(await profileOf(page)).toEqual({ userName: 'ada', email: 'ada@idp.example', emailVerified: true, role: 'user' });
    await snap(page, 'signin-sso-done');
    await dialog.getByRole('button', { name: 'Log Out' }).click();
    await expect(page).toHaveURL(`${sso.baseUrl}/`);
  });

  test("makes a member of the provider's admin group an admin", async ({ page }) => {
    await page.goto(`${sso.baseUrl}/signin`);
    await page.getByRole('button', { name: SSO_BUTTON_TEXT }).click();
    await signInAtProvider(page, 'grace');
    await expect(page).toHaveURL(`${sso.baseUrl}/`, { timeout: 15_000 });
    expect(await profileOf(page)).toMatchObject({ userName: 'grace', role: 'admin' });
  });

  test('shows why an address an unverified account holds cannot sign in, on the auth screen', async ({ page }) => {
    await page.goto(`${sso.baseUrl}/signin`);
    await page.getByRole('button', { name: SSO_BUTTON_TEXT }).click();
    await signInAtProvider(page, 'joan');
    const alert = page.getByRole('alert').filter({ hasText: "that account's address has not been verified" });
    await expect(alert).toBeVisible({ timeout: 15_000 });
    // The answer is spent and taken out of the address; the form is there to try again.
    await expect(page).toHaveURL(`${sso.baseUrl}/signin`);
    await expect(page.getByRole('button', { name: SSO_BUTTON_TEXT })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Open profile' })).toHaveCount(0);
    await snap(page, 'signin-sso-refused');
  });

  test('a reused answer from the provider is refused with a message', async ({ page }) => {
    await page.goto(`${sso.baseUrl}/signin`);
    await page.getByRole('button', { name: SSO_BUTTON_TEXT }).click();
    // Keep the provider's answer before Encore uses it, then use it once more after.
    let answer = '';
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === sso.baseUrl && url.pathname === '/signin' && url.searchParams.has('code')) answer = url.href;
    });
    await signInAtProvider(page, 'ada');
    await expect(page).toHaveURL(`${sso.baseUrl}/`, { timeout: 15_000 });
    expect(answer).not.toBe('');
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await page.goto(answer);
    await expect(page.getByRole('alert')).toContainText('This sign-in took too long or was started in another browser.');
  });
});
