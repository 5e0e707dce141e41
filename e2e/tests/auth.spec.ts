import { expect, test } from '@playwright/test';
import { linkFromOutbox, openCentred, resetLinkFromOutbox, signInThroughUi, signUpThroughUi, snap, uniqueUser } from './support.js';

test.describe('accounts in a real browser', () => {
  test('landing and the auth screens', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Your Music, Elevated' })).toBeVisible();
    await expect(page.getByText('Next-Gen Music Management')).toBeVisible();
    await snap(page, 'landing');

    await page.getByRole('link', { name: 'Get Started' }).first().click();
    await expect(page).toHaveURL(/\/signin$/);
    await page.getByLabel('Username').focus();
    await page.getByLabel('Username').blur();
    await expect(page.getByText('Username is required')).toBeVisible();
    await snap(page, 'signin-validation');

    await page.goto('/signup');
    await page.getByLabel('Password', { exact: true }).fill('abc');
    await expect(page.getByText('Weak')).toBeVisible();
    await page.getByLabel('Password', { exact: true }).fill('Abcdefg1!');
    await expect(page.getByText('Strong')).toBeVisible();
    await snap(page, 'signup');
  });

  test('sign up, sign in, profile dialog, log out', async ({ page }) => {
    const user = uniqueUser('journey');
    await signUpThroughUi(page, user);
    // Sign-up does not sign in.
    await expect(page.getByRole('link', { name: 'Get Started' }).first()).toBeVisible();

    await signInThroughUi(page, user);
    await expect(page).toHaveURL(/\/$/);
    const dialog = page.getByRole('dialog', { name: 'User Profile' });
    await openCentred(page, () => page.getByRole('button', { name: 'Open profile' }).click(), dialog);
    await expect(dialog.getByText(user.email)).toBeVisible();
    await expect(dialog.getByText(user.userName.slice(0, 1).toUpperCase(), { exact: true })).toBeVisible();
    await snap(page, 'profile-dialog');

    await dialog.getByRole('button', { name: 'Log Out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('link', { name: 'Get Started' }).first()).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token') ?? sessionStorage.getItem('token'))).toBeNull();
  });

  test('wrong password shows the catalogue message', async ({ page }) => {
    const user = uniqueUser('wrongpw');
    await signUpThroughUi(page, user);
    await page.goto('/signin');
    await page.getByLabel('Username').fill(user.userName);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).last().click();
    await expect(page.getByText('Wrong username or password!')).toBeVisible({ timeout: 10_000 });
    await expect(page).toHaveURL(/\/signin$/);
  });

  test('remember me keeps the session across a reload and auto login restores it', async ({ page }) => {
    const user = uniqueUser('remember');
    await signUpThroughUi(page, user);
    await page.goto('/signin');
    await page.getByLabel('Username').fill(user.userName);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByLabel('Remember me').check();
    await page.getByRole('button', { name: 'Sign In', exact: true }).last().click();
    await expect(page.getByText('You have successfully connected.')).toBeVisible({ timeout: 15_000 });
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Open profile' })).toBeVisible();
    // A signed-in user is sent away from the guest pages.
    await page.goto('/signin');
    await expect(page).toHaveURL(/\/$/);
  });

  test('forgot password, reset link from the outbox, sign in with the new password', async ({ page }) => {
    const user = uniqueUser('forgot');
    await signUpThroughUi(page, user);
    await page.goto('/signin');
    await page
      .getByRole('button', { name: 'Forgot password?' })
      .or(page.getByRole('link', { name: 'Forgot password?' }))
      .first()
      .click();
    await page.getByLabel('Email Address').fill(user.email);
    await page.getByLabel('Username').fill(user.userName);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByText('Email Sent!')).toBeVisible({ timeout: 15_000 });
    await snap(page, 'forgot-sent');

    const link = new URL(await resetLinkFromOutbox(user.email));
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByLabel('New Password').fill('N3w!password');
    await page.getByLabel('Confirm Password').fill('N3w!passwordX');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    await page.getByLabel('Confirm Password').fill('N3w!password');
    await snap(page, 'reset-password');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByRole('status').getByText('Password reset successfully! Please log in with your new password.')).toBeVisible();
    await expect(page).toHaveURL(/\/signin$/, { timeout: 10_000 });

    await signInThroughUi(page, { userName: user.userName, password: 'N3w!password' });
  });

  test('reset page without token shows the invalid-link view', async ({ page }) => {
    await page.goto('/reset-password');
    await expect(page.getByRole('button', { name: 'Reset Password' })).toHaveCount(0);
    await snap(page, 'reset-invalid');
  });

  test('guards and Not Found', async ({ page }) => {
    await page.goto('/music?owner=true');
    await expect(page).toHaveURL(/\/signin\?next=/);
    for (const path of ['/about', '/no-such-page']) {
      await page.goto(path);
      await expect(
        page
          .getByRole('link', { name: 'Back to Home' })
          .or(page.getByRole('button', { name: 'Back to Home' }))
          .first(),
      ).toBeVisible();
    }
    await snap(page, 'not-found');
    await page
      .getByRole('link', { name: 'Back to Home' })
      .or(page.getByRole('button', { name: 'Back to Home' }))
      .first()
      .click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('the profile says the e-mail is unverified until the mailed link is opened', async ({ page }) => {
    const user = uniqueUser('verify');
    await signUpThroughUi(page, user);
    await signInThroughUi(page, user);
    await page.getByRole('button', { name: 'Open profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'User Profile' });
    await expect(dialog.getByText('Not verified')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Resend verification e-mail' })).toBeVisible();
    // The dialog's opening animation settles before the picture (an animation cancelled
    // meanwhile, as a re-render does, rejects `finished`: it has settled too).
    await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
    await snap(page, 'profile-unverified', { fullPage: false });
    await page.keyboard.press('Escape');

    const link = new URL(await linkFromOutbox(user.email, /\/verify-email\?/));
    await page.goto(`${link.pathname}${link.search}`);
    await expect(page.getByRole('heading', { name: 'E-mail verified' })).toBeVisible();
    await snap(page, 'verify-email');
    await page.getByRole('button', { name: 'Open profile' }).click();
    await expect(page.getByRole('dialog', { name: 'User Profile' }).getByText('Verified', { exact: true })).toBeVisible();

    // The link works once.
    await page.goto(`${link.pathname}${link.search}`);
    await expect(page.getByRole('heading', { name: 'E-mail not verified' })).toBeVisible();
  });
});
