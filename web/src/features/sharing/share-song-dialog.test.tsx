import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { makeSong, signInForTest } from '../../test/song-fixture';

beforeEach(signInForTest);

async function openShareDialog(sendAnswer: Parameters<typeof stubFetch>[0][string]) {
  const stub = stubFetch({
    'GET /api/files/5': { body: makeSong(5, { displayName: 'Blue Hour' }) },
    'POST /api/email/send-song-link': sendAnswer,
  });
  const user = userEvent.setup();
  renderApp('/music/5');
  await user.click(await screen.findByRole('button', { name: 'Share' }));
  const dialog = screen.getByRole('dialog', { name: 'Share by Email' });
  return { user, dialog, field: within(dialog).getByLabelText('Email Address'), send: within(dialog).getByRole('button', { name: 'Send' }), ...stub };
}

describe('share by e-mail', () => {
  it('keeps Send disabled while the field is empty, and checks the address', async () => {
    const { user, dialog, field, send, requests } = await openShareDialog({ body: { success: true, message: 'ok' } });
    expect(send).toBeDisabled();

    await user.type(field, '   ');
    expect(send).toBeEnabled();
    await user.click(send);
    expect(within(dialog).getByText('Please enter an email address.')).toBeInTheDocument();

    await user.type(field, 'friend-at-example');
    expect(within(dialog).queryByText('Please enter an email address.')).not.toBeInTheDocument();
    await user.click(send);
    expect(within(dialog).getByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(requests.filter((r) => r.path === '/api/email/send-song-link')).toHaveLength(0);
  });

  it('sends the song link and closes with "Email sent successfully!"', async () => {
    const { user, field, send, requests } = await openShareDialog({ body: { success: true, message: 'Sent' } });
    await user.type(field, ' friend@example.com ');
    await user.click(send);
    expect(await screen.findByText('Email sent successfully!')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requests.find((r) => r.path === '/api/email/send-song-link')?.body).toEqual({
      Email: 'friend@example.com',
      songUrl: `${window.location.origin}/music/5`,
      songId: 5,
    });
  });

  it("shows the server's message when sending fails", async () => {
    const { user, dialog, field, send } = await openShareDialog({ status: 429, body: { message: 'You have shared a lot today.' } });
    await user.type(field, 'friend@example.com');
    await user.click(send);
    await waitFor(() => expect(screen.getAllByText('You have shared a lot today.')).toHaveLength(2));
    expect(within(dialog).getByLabelText('Email Address')).toHaveValue('friend@example.com');
  });

  it("falls back to 'Failed to send email.'", async () => {
    const { user, field, send } = await openShareDialog({ body: { success: false, message: '' } });
    await user.type(field, 'friend@example.com');
    await user.click(send);
    await waitFor(() => expect(screen.getAllByText('Failed to send email.')).toHaveLength(2));
  });
});
