import type { AdminUser, QueuesResponse, StorageResponse } from '@encore/common/admin.contract';
import { authMessagesEn } from '@encore/common/messages.en';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../lib/i18n/i18n.store';
import { sessionStore } from '../../lib/session.store';
import { stubFetch, type StubResponse } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { signInForTest } from '../../test/song-fixture';

const now = new Date().toISOString();

function user(overrides: Partial<AdminUser>): AdminUser {
  return {
    id: 1,
    userName: 'ada',
    email: 'ada@example.com',
    role: 'admin',
    emailVerified: true,
    disabled: false,
    hasPassword: true,
    createdAt: now,
    lastSeenAt: now,
    songs: 0,
    storageBytes: 0,
    isYou: true,
    ...overrides,
  };
}

const users = [
  user({}),
  user({ id: 2, userName: 'bob', email: 'bob@example.com', role: 'user', emailVerified: false, songs: 12, storageBytes: 48 * 1024 * 1024, isYou: false }),
];

const queues: QueuesResponse = {
  queues: [
    { name: 'clips.render', waiting: 2, running: 1, failed: 1 },
    { name: 'mail.send', waiting: 0, running: 0, failed: 0 },
  ],
  jobs: [
    {
      id: '9b2f2a4e-0000-4000-8000-000000000001',
      queue: 'clips.render',
      state: 'failed',
      createdAt: now,
      endedAt: now,
      error: 'ffmpeg exited with 1',
      attempts: 3,
    },
  ],
};

const storage: StorageResponse = {
  kinds: [
    { kind: 'songs', bytes: 3 * 1024 ** 3, objects: 900 },
    { kind: 'covers', bytes: 40 * 1024 ** 2, objects: 900 },
    { kind: 'clips', bytes: 512 * 1024 ** 2, objects: 1 },
    { kind: 'transcodes', bytes: 0, objects: 0 },
  ],
  musicFolderSongs: 0,
};

/** An admin's view of a small instance; `overrides` replaces any call's answer. */
function stubAdmin(overrides: Record<string, StubResponse | ((request: { body: unknown; path: string }) => StubResponse)> = {}) {
  return stubFetch({
    'GET /api/auth/profile': { body: { userName: 'ada', email: 'ada@example.com', emailVerified: true, role: 'admin' } },
    'GET /api/admin/users': { body: { users } },
    'GET /api/admin/invitations': { body: { invitations: [] } },
    'GET /api/admin/settings': { body: { signUp: { mode: 'open', fromEnvironment: false } } },
    'GET /api/admin/music-folders': {
      body: {
        configured: false,
        folders: [],
        scan: {
          state: 'idle',
          trigger: null,
          startedAt: null,
          finishedAt: null,
          total: 0,
          done: 0,
          added: 0,
          updated: 0,
          moved: 0,
          missing: 0,
          failed: 0,
          error: null,
        },
      },
    },
    'GET /api/admin/queues': { body: queues },
    'GET /api/admin/storage': { body: storage },
    ...overrides,
  });
}

beforeEach(signInForTest);
afterEach(() => {
  act(() => setLanguage('en'));
});

const row = async (name: string) => (await screen.findAllByTestId('admin-user')).find((element) => within(element).queryByText(name)) as HTMLElement;

describe('the admin page', () => {
  it('is Not Found for a signed-in user who is not an admin, and asks no admin call', async () => {
    const { requests } = stubFetch({ 'GET /api/auth/profile': { body: { userName: 'ada', email: 'ada@example.com', emailVerified: true, role: 'user' } } });
    renderApp('/admin');
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(requests.some((request) => request.path.startsWith('/api/admin'))).toBe(false);
    expect(screen.queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
  });

  it('is Not Found for a guest', async () => {
    sessionStore.logOut();
    const { requests } = stubFetch({});
    renderApp('/admin');
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(requests.some((request) => request.path.startsWith('/api/admin'))).toBe(false);
  });

  it('lists the users with role, verification, songs, storage and last seen; the menu links to it', async () => {
    stubAdmin();
    renderApp('/admin');
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin' })).toBeInTheDocument();
    const bob = await row('bob');
    expect(within(bob).getByText('bob@example.com')).toBeInTheDocument();
    expect(within(bob).getByText(/Not verified/)).toBeInTheDocument();
    expect(within(bob).getByText('User')).toBeInTheDocument();
    expect(within(bob).getByText('12')).toBeInTheDocument();
    expect(within(bob).getByText('48.0 MB')).toBeInTheDocument();
    expect(within(bob).getByText('Just now')).toBeInTheDocument();
    const ada = await row('ada');
    expect(within(ada).getByText('You')).toBeInTheDocument();
    expect(within(ada).getByText('Admin')).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Main navigation' })).getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
  });

  it('makes an admin, and says in the reader language why the last admin cannot step down', async () => {
    const { requests } = stubAdmin({
      'PUT /api/admin/users/2/role': (request) => ({ body: { ...users[1], role: (request.body as { role: string }).role } }),
      'PUT /api/admin/users/1/role': { status: 409, body: { message: authMessagesEn.lastAdmin } },
    });
    const click = userEvent.setup();
    renderApp('/admin');
    await click.click(within(await row('bob')).getByRole('button', { name: 'Actions for bob' }));
    await click.click(await screen.findByRole('menuitem', { name: 'Make admin' }));
    expect(await screen.findByText('bob is now an admin.')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'PUT' && request.path === '/api/admin/users/2/role')?.body).toEqual({ role: 'admin' });

    act(() => setLanguage('he'));
    await click.click(within(await row('ada')).getByRole('button', { name: 'פעולות עבור ada' }));
    await click.click(await screen.findByRole('menuitem', { name: 'הסרת הרשאות ניהול' }));
    expect(await screen.findByText('אי אפשר להוריד את ההרשאות של המנהל האחרון או למחוק אותו. הפכו קודם חשבון אחר למנהל.')).toBeInTheDocument();
  });

  it('disables, sends a reset mail, and deletes with the uploads only when ticked', async () => {
    const { requests } = stubAdmin({
      'PUT /api/admin/users/2/disabled': { body: { ...users[1], disabled: true } },
      'POST /api/admin/users/2/password-reset': { body: { message: 'A password reset link is on its way to bob@example.com.' } },
      'DELETE /api/admin/users/2': { body: { songsKept: 0, songsDeleted: 12 } },
    });
    const click = userEvent.setup();
    renderApp('/admin');
    const open = async (item: string) => {
      await click.click(within(await row('bob')).getByRole('button', { name: 'Actions for bob' }));
      await click.click(await screen.findByRole('menuitem', { name: item }));
    };
    await open('Disable');
    expect(await screen.findByText('bob is disabled: their sessions, API keys and app passwords stopped working.')).toBeInTheDocument();
    expect(requests.find((request) => request.path === '/api/admin/users/2/disabled')?.body).toEqual({ disabled: true });

    await open('Send password reset');
    expect(await screen.findByText('A password reset link is on its way to bob@example.com.')).toBeInTheDocument();

    await open('Delete…');
    const dialog = await screen.findByRole('dialog', { name: 'Delete bob?' });
    await click.click(within(dialog).getByLabelText('Delete their uploads too (12)'));
    await click.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    expect(await screen.findByText('bob was deleted.')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'DELETE')?.path).toBe('/api/admin/users/2?deleteUploads=true');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('checks the address before inviting, then sends the invitation', async () => {
    const { requests } = stubAdmin({
      'POST /api/admin/invitations': (request) => ({
        status: 201,
        body: { id: 5, email: (request.body as { email: string }).email, state: 'pending', invitedBy: 'ada', usedBy: null, createdAt: now, expiresAt: now },
      }),
    });
    const click = userEvent.setup();
    renderApp('/admin');
    const panel = await screen.findByRole('region', { name: 'Invitations' });
    const field = within(panel).getByLabelText('E-mail address');
    await click.type(field, 'not an address');
    await click.click(within(panel).getByRole('button', { name: 'Send invitation' }));
    expect(await within(panel).findByText('Invalid email address')).toBeInTheDocument();
    expect(requests.some((request) => request.method === 'POST' && request.path === '/api/admin/invitations')).toBe(false);

    await click.clear(field);
    await click.type(field, 'friend@example.com');
    await click.click(within(panel).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to friend@example.com.')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'POST' && request.path === '/api/admin/invitations')?.body).toEqual({ email: 'friend@example.com' });
    expect(field).toHaveValue('');
  });

  it('changes who may sign up, and cannot when the environment sets it', async () => {
    const { requests } = stubAdmin({
      'PUT /api/admin/settings': (request) => ({ body: { signUp: { mode: (request.body as { signUp: string }).signUp, fromEnvironment: false } } }),
    });
    const click = userEvent.setup();
    const view = renderApp('/admin');
    const panel = await screen.findByRole('region', { name: 'Who may sign up' });
    await click.click(await within(panel).findByRole('button', { name: 'By invitation' }));
    expect(await screen.findByText('Sign-up setting saved.')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'PUT')?.body).toEqual({ signUp: 'invite' });
    view.unmount();

    stubAdmin({ 'GET /api/admin/settings': { body: { signUp: { mode: 'closed', fromEnvironment: true } } } });
    renderApp('/admin');
    const locked = await screen.findByRole('region', { name: 'Who may sign up' });
    expect(await within(locked).findByTestId('signup-from-environment')).toHaveTextContent("Set by SIGNUP in the server's environment");
    expect(within(locked).getByRole('button', { name: 'Anyone' })).toBeDisabled();
    expect(await screen.findByText(/invitation links do not work/)).toBeInTheDocument();
  });

  it('shows the queues and retries a failed job; shows storage per kind', async () => {
    const { requests } = stubAdmin({ 'POST /api/admin/queues/clips.render/jobs/9b2f2a4e-0000-4000-8000-000000000001/retry': { status: 204 } });
    const click = userEvent.setup();
    renderApp('/admin');
    const panel = await screen.findByRole('region', { name: 'Background jobs' });
    const render = (await within(panel).findAllByTestId('admin-queue')).find((element) => within(element).queryByText('Clip rendering')) as HTMLElement;
    expect(
      within(render)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Clip rendering', '2', '1', '1']);
    expect(within(panel).getAllByTestId('admin-queue')[1]).toHaveTextContent('E-mail');
    expect(within(panel).queryByText('clips.render')).toBeNull();
    expect(within(panel).getByText('ffmpeg exited with 1')).toBeInTheDocument();
    await click.click(within(panel).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('The job will run again.')).toBeInTheDocument();
    expect(requests.some((request) => request.method === 'POST' && request.path.endsWith('/retry'))).toBe(true);

    const songs = await screen.findByTestId('admin-storage-songs');
    expect(songs).toHaveTextContent('3.0 GB');
    expect(songs).toHaveTextContent('900 files');
    expect(screen.getByTestId('admin-storage-clips')).toHaveTextContent('512.0 MB');
    expect(screen.getByTestId('admin-storage-clips')).toHaveTextContent(/(?<!\d)1 file(?!s)/);
  });

  it('says when no music folders are configured, and scans when they are', async () => {
    const scan = {
      state: 'done',
      trigger: 'start',
      startedAt: now,
      finishedAt: now,
      total: 10,
      done: 10,
      added: 10,
      updated: 0,
      moved: 0,
      missing: 0,
      failed: 0,
      error: null,
    };
    const { requests } = stubAdmin({
      'GET /api/admin/music-folders': { body: { configured: true, folders: [{ id: 1, path: '/srv/music', songs: 10, available: true }], scan } },
      'POST /api/admin/music-folders/scan': { body: { ...scan, state: 'running', trigger: 'manual', done: 0 } },
    });
    const click = userEvent.setup();
    renderApp('/admin');
    const panel = await screen.findByRole('region', { name: 'Music folders' });
    expect(await within(panel).findByTestId('admin-scan-status')).toHaveTextContent('Last scan just now: 10 added, 0 updated, 0 missing, 0 failed.');
    await click.click(within(panel).getByRole('button', { name: 'Scan now' }));
    expect(await screen.findByText('Scan started.')).toBeInTheDocument();
    expect(requests.some((request) => request.method === 'POST' && request.path === '/api/admin/music-folders/scan')).toBe(true);
  });
});
