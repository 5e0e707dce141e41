import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN_URL, startAdminEncore, type AdminEncore } from '../admin-encore.js';
import { signInThroughUi, signUpThroughUi, snap, uniqueUser } from './support.js';

/**
 * An instance its owner controls (issue 29) in a real browser, on an Encore of its own
 * (admin-encore.ts): the first sign-up is the admin and finds the admin page in the menu; it
 * makes sign-up invitation-only and invites a guest, who signs up through the e-mailed link
 * (address filled in) and sees no admin page; the admin disables the guest (their open page is
 * signed out), deletes them, closes sign-up (the auth screen has no sign-up tab), scans the
 * music folders and sees the queues and the storage.
 */
test.describe('the admin page', () => {
  test.use({ baseURL: ADMIN_URL });
  let encore: AdminEncore | undefined;
  test.beforeAll(async () => {
    encore = await startAdminEncore();
  });
  test.afterAll(async () => {
    await encore?.stop();
  });

  const guestPage = async (browser: Browser): Promise<Page> =>
    (await browser.newContext({ baseURL: ADMIN_URL, viewport: { width: 1280, height: 800 } })).newPage();
  const userRow = (page: Page, name: string) => page.getByTestId('admin-user').filter({ hasText: name });
  const act = async (page: Page, name: string, item: string) => {
    await userRow(page, name)
      .getByRole('button', { name: `Actions for ${name}` })
      .click();
    await page.getByRole('menuitem', { name: item }).click();
  };

  test('first account is admin; invite-only sign-up through an e-mailed link; disable, delete, close sign-up', async ({ page, browser }) => {
    test.setTimeout(180_000);
    const root = uniqueUser('root');
    await signUpThroughUi(page, root);
    await signInThroughUi(page, root);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('link', { name: 'Admin' }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
    await expect(userRow(page, root.userName)).toContainText('Admin');
    await expect(userRow(page, root.userName)).toContainText('You');

    // Invitation only, then an invitation.
    const signUp = page.getByRole('region', { name: 'Who may sign up' });
    await signUp.getByRole('button', { name: 'By invitation' }).click();
    await expect(page.getByText('Sign-up setting saved.')).toBeVisible();
    const guest = uniqueUser('guest');
    const invitations = page.getByRole('region', { name: 'Invitations' });
    await invitations.getByLabel('E-mail address').fill(guest.email);
    await invitations.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByText(`Invitation sent to ${guest.email}.`)).toBeVisible();
    await expect(invitations.getByTestId('admin-invitation').filter({ hasText: guest.email })).toContainText('Pending');
    await snap(page, 'admin-page');

    // A visitor without the link gets the note, not a form that fails.
    const visitor = await guestPage(browser);
    await visitor.goto('/signup');
    await expect(visitor.getByTestId('signup-invite-only')).toContainText('by invitation only');
    await expect(visitor.getByLabel('Email', { exact: true })).toHaveCount(0);

    // The guest opens the e-mailed link: the address is filled in, and the sign-up works once.
    const link = await (encore as AdminEncore).linkFromOutbox(guest.email, /\/signup\?invitation=/);
    await visitor.goto(link);
    await expect(visitor.getByTestId('signup-invited')).toContainText(guest.email);
    await expect(visitor.getByLabel('Email', { exact: true })).toHaveValue(guest.email);
    await visitor.getByLabel('Username').fill(guest.userName);
    await visitor.getByLabel('Password', { exact: true }).fill(guest.password);
    await visitor.getByRole('checkbox').check();
    await visitor.getByRole('button', { name: 'Sign Up', exact: true }).last().click();
    await expect(visitor).toHaveURL(/\/$/, { timeout: 15_000 });
    await signInThroughUi(visitor, guest);
    await expect(visitor.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Admin' })).toHaveCount(0);
    await visitor.goto('/admin');
    await expect(visitor.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await visitor.goto('/music');

    // The admin sees the guest, invited and verified by the link; disabling ends the guest's session at once.
    await page.reload();
    await expect(userRow(page, guest.userName)).toContainText('Verified');
    await expect(invitations.getByTestId('admin-invitation').filter({ hasText: guest.email })).toContainText(`Used · by ${guest.userName}`);
    await act(page, guest.userName, 'Disable');
    await expect(page.getByText(`${guest.userName} is disabled`)).toBeVisible();
    await expect(userRow(page, guest.userName)).toContainText('Disabled');
    await visitor.reload();
    await expect(visitor).toHaveURL(/\/signin/, { timeout: 15_000 });

    // The last admin cannot step down; the guest is deleted.
    await act(page, root.userName, 'Remove admin');
    await expect(page.getByText('The last admin cannot be demoted or deleted.')).toBeVisible();
    await act(page, guest.userName, 'Delete…');
    const dialog = page.getByRole('dialog', { name: `Delete ${guest.userName}?` });
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await expect(page.getByText(`${guest.userName} was deleted.`)).toBeVisible();
    await expect(userRow(page, guest.userName)).toHaveCount(0);

    // Music folders, queues and storage.
    const folders = page.getByRole('region', { name: 'Music folders' });
    await folders.getByRole('button', { name: 'Scan now' }).click();
    await expect(page.getByText('Scan started.')).toBeVisible();
    await expect(folders.getByTestId('admin-scan-status')).toContainText('Last scan', { timeout: 30_000 });
    await expect(
      page
        .getByRole('region', { name: 'Background jobs' })
        .getByTestId('admin-queue')
        .filter({ has: page.getByText('E-mail', { exact: true }) }),
    ).toBeVisible();
    await expect(page.getByTestId('admin-storage-songs')).toContainText('0 files');

    // Closed: a visitor's auth screen has no sign-up tab and says how to get an account.
    await signUp.getByRole('button', { name: 'Nobody' }).click();
    await expect(page.getByText('Sign-up setting saved.').last()).toBeVisible();
    const stranger = await guestPage(browser);
    await stranger.goto('/signup');
    await expect(stranger.getByTestId('signup-closed')).toContainText('Sign-up is closed on this Encore');
    await expect(stranger.getByRole('tab', { name: 'Sign Up' })).toHaveCount(0);
    await snap(stranger, 'auth-signup-closed');

    // In Hebrew, right to left; and the profile page's own delete, refused to the last admin.
    await page.evaluate(() => localStorage.setItem('language', 'he'));
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'ניהול' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'מי יכול להירשם' }).getByRole('button', { name: 'אף אחד' })).toHaveAttribute('aria-pressed', 'true');
    await snap(page, 'admin-page-he');
    // Issue 37: the job kinds by their Hebrew names, not the server's; on a 390 px phone the page
    // does not scroll sideways and each user's actions are on screen.
    const jobs = page.getByRole('region', { name: 'עבודות ברקע' });
    await expect(jobs.getByTestId('admin-queue').first()).toBeVisible();
    await expect(jobs.getByTestId('admin-queue').filter({ hasText: /[a-z]+\.[a-z-]+/ })).toHaveCount(0);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(userRow(page, root.userName)).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const actions = await userRow(page, root.userName)
      .getByRole('button', { name: `פעולות עבור ${root.userName}` })
      .boundingBox();
    expect(actions && actions.x >= 0 && actions.x + actions.width <= 390).toBe(true);
    await snap(page, 'admin-page-phone-he');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete your account?' });
    await confirm.getByLabel('Password', { exact: true }).fill(root.password);
    await snap(page, 'profile-delete-account', { fullPage: false });
    await confirm.getByRole('button', { name: 'Delete for good' }).click();
    await expect(page.getByText('The last admin cannot be demoted or deleted.')).toBeVisible();
  });
});
