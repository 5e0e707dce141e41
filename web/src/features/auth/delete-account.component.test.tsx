import { authMessagesEn } from '@encore/common/messages.en';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../../lib/session.store';
import { stubFetch } from '../../test/fetch-stub';
import { currentPath, renderApp } from '../../test/render-app';
import { signInForTest } from '../../test/song-fixture';

beforeEach(signInForTest);

async function confirmWith(secret: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Delete my account' }));
  const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
  const confirm = within(dialog).getByRole('button', { name: 'Delete for good' });
  expect(confirm).toBeDisabled();
  await user.type(within(dialog).getByLabelText('Password'), secret);
  await user.click(confirm);
  return dialog;
}

describe("deleting one's own account", () => {
  it('asks for the password again, deletes, signs out and goes home', async () => {
    const { requests } = stubFetch({ 'DELETE /api/auth/account': { status: 204 } });
    const view = renderApp('/profile');
    await confirmWith('correct horse 1');
    expect(await screen.findByText('Your account has been deleted.')).toBeInTheDocument();
    // The one field goes as both: the server checks the password, or the user name of an account without one.
    expect(requests.find((request) => request.method === 'DELETE')?.body).toEqual({ password: 'correct horse 1', userName: 'correct horse 1' });
    await waitFor(() => expect(currentPath(view.router)).toBe('/'));
    await waitFor(() => expect(sessionStore.getState().isLoggedIn).toBe(false));
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('says when the password is wrong, and keeps the session', async () => {
    stubFetch({ 'DELETE /api/auth/account': { status: 400, body: { message: 'Wrong password.' } } });
    renderApp('/profile');
    await confirmWith('nope');
    expect(await screen.findByText('That is not your password (or, without one, your user name).')).toBeInTheDocument();
    expect(sessionStore.getState().isLoggedIn).toBe(true);
  });

  it('says why the last admin cannot', async () => {
    stubFetch({ 'DELETE /api/auth/account': { status: 409, body: { message: authMessagesEn.lastAdmin } } });
    renderApp('/profile');
    await confirmWith('correct horse 1');
    expect(await screen.findByText(authMessagesEn.lastAdmin)).toBeInTheDocument();
    expect(sessionStore.getState().isLoggedIn).toBe(true);
  });
});
