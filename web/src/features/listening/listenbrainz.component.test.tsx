import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ListenBrainzStatus } from '@encore/common/listening.contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../lib/i18n/i18n.store';
import { sessionStore } from '../../lib/session.store';
import { stubFetch } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';

beforeEach(() => {
  sessionStore.reset();
  localStorage.setItem('token', 'tok');
  localStorage.setItem('userName', 'ada');
  localStorage.setItem('email', 'ada@example.com');
  sessionStore.syncWithStoredToken();
});
afterEach(() => {
  act(() => setLanguage('en'));
});

const unlinked: ListenBrainzStatus = { linked: false, userName: null, lastSubmittedAt: null, lastError: null, lastErrorAt: null };
const linked: ListenBrainzStatus = { linked: true, userName: 'ada_on_lb', lastSubmittedAt: null, lastError: null, lastErrorAt: null };

const section = async () => within(await screen.findByRole('region', { name: 'ListenBrainz' }));

describe('the ListenBrainz section of the profile page', () => {
  it('connects a token the server accepts, after saying what is wrong with an empty or refused one', async () => {
    let accept = false;
    const { requests } = stubFetch({
      'GET /api/profile/listenbrainz': { body: unlinked },
      'PUT /api/profile/listenbrainz': () => (accept ? { body: linked } : { status: 400, body: { message: 'ListenBrainz did not accept this token' } }),
    });
    const user = userEvent.setup();
    renderApp('/profile');
    const box = await section();
    const connect = await box.findByRole('button', { name: 'Connect' });
    expect(box.getByRole('link', { name: 'Settings → User token' })).toHaveAttribute('href', 'https://listenbrainz.org/settings/');
    await user.click(connect);
    expect(box.getByText('Enter your ListenBrainz user token')).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'PUT')).toHaveLength(0);

    const field = box.getByLabelText('User token');
    await user.type(field, 'wrong-token');
    await user.click(connect);
    expect(await box.findByText('ListenBrainz did not accept this token')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAttribute('type', 'password');

    accept = true;
    await user.clear(field);
    await user.type(field, '  right-token ');
    await user.click(connect);
    expect(await box.findByText('Connected as ada_on_lb')).toBeInTheDocument();
    expect(box.getByText('No listen sent yet')).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'PUT').map((request) => request.body)).toEqual([{ token: 'wrong-token' }, { token: 'right-token' }]);
  });

  it('shows the last listen sent and the last failure, and disconnects', async () => {
    const { requests } = stubFetch({
      'GET /api/profile/listenbrainz': {
        body: {
          ...linked,
          lastSubmittedAt: '2026-03-05T12:00:00Z',
          lastError: 'ListenBrainz answered 503 (will try again)',
          lastErrorAt: '2026-03-06T12:00:00Z',
        },
      },
      'DELETE /api/profile/listenbrainz': { status: 204 },
    });
    const user = userEvent.setup();
    renderApp('/profile');
    const box = await section();
    expect(await box.findByText('Connected as ada_on_lb')).toBeInTheDocument();
    expect(box.getByText(/^Last listen sent Mar 5/)).toBeInTheDocument();
    expect(box.getByText('The last listen could not be sent: ListenBrainz answered 503 (will try again)')).toBeInTheDocument();
    await user.click(box.getByRole('button', { name: 'Disconnect' }));
    expect(await box.findByRole('button', { name: 'Connect' })).toBeInTheDocument();
    expect(requests.some((request) => request.method === 'DELETE' && request.path === '/api/profile/listenbrainz')).toBe(true);
  });

  it('speaks Hebrew, with its own words for a server that cannot reach ListenBrainz', async () => {
    stubFetch({
      'GET /api/profile/listenbrainz': { body: unlinked },
      'PUT /api/profile/listenbrainz': { status: 503, body: { message: 'ListenBrainz could not be reached; try again later' } },
    });
    act(() => setLanguage('he'));
    const user = userEvent.setup();
    renderApp('/profile');
    const box = await section();
    await user.type(await box.findByLabelText('אסימון משתמש'), 'token');
    await user.click(box.getByRole('button', { name: 'חיבור' }));
    expect(await box.findByText('לא ניתן להגיע ל-ListenBrainz; כדאי לנסות שוב מאוחר יותר')).toBeInTheDocument();
  });

  it('says so when the connection cannot be loaded', async () => {
    stubFetch({ 'GET /api/profile/listenbrainz': { status: 500, body: { message: 'boom' } } });
    renderApp('/profile');
    const box = await section();
    await waitFor(() => expect(box.getByRole('alert')).toHaveTextContent('Failed to load your ListenBrainz connection'));
  });
});
