import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { safeNextPath, signInPathFor } from '../features/auth/auth-redirect';
import { AuthPage } from '../features/auth/auth.page';
import { sessionStore } from '../lib/session.store';
import { stubFetch } from '../test/fetch-stub';
import { AppProviders } from './app.providers';
import { GuestOnly, RequireAuth } from './route-guards';

function Where() {
  const location = useLocation();
  return <output aria-label="location">{`${location.pathname}${location.search}`}</output>;
}

function renderGuarded(path: string) {
  return render(
    <AppProviders>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/" element={<p>Landing</p>} />
          <Route element={<GuestOnly />}>
            <Route path="/signin" element={<AuthPage />} />
            <Route path="/signup" element={<AuthPage />} />
          </Route>
          <Route element={<RequireAuth />}>
            <Route path="/music" element={<p>Music collection</p>} />
          </Route>
        </Routes>
        <Where />
      </MemoryRouter>
    </AppProviders>,
  );
}

function location() {
  return screen.getByRole('status', { name: 'location' }).textContent;
}

beforeEach(() => {
  sessionStore.reset();
  stubFetch({});
});

describe('route guards', () => {
  it('sends a guest from a protected page to /signin with the way back', () => {
    renderGuarded('/music?owner=true');
    expect(location()).toBe('/signin?next=%2Fmusic%3Fowner%3Dtrue');
    expect(screen.queryByText('Music collection')).not.toBeInTheDocument();
  });

  it('lets a signed-in user through to a protected page', () => {
    localStorage.setItem('token', 't');
    sessionStore.syncWithStoredToken();
    renderGuarded('/music');
    expect(screen.getByText('Music collection')).toBeInTheDocument();
  });

  it.each(['/signin', '/signup'])('sends a signed-in user from %s to /', (path) => {
    localStorage.setItem('token', 't');
    sessionStore.syncWithStoredToken();
    renderGuarded(path);
    expect(location()).toBe('/');
    expect(screen.getByText('Landing')).toBeInTheDocument();
  });

  it('sends a signed-in user on /signin?next= to that page instead', () => {
    localStorage.setItem('token', 't');
    sessionStore.syncWithStoredToken();
    renderGuarded('/signin?next=%2Fmusic');
    expect(screen.getByText('Music collection')).toBeInTheDocument();
  });

  it('waits for auto login instead of redirecting, then decides', async () => {
    localStorage.setItem('token', 'stored');
    let answer: (value: Response) => void = () => {};
    const fetched = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal('fetch', fetched);
    const restoring = sessionStore.restore();
    renderGuarded('/music');
    expect(screen.getByText('Checking your session…')).toBeInTheDocument();
    expect(location()).toBe('/music');
    // The auth calls load on first use: the profile request goes out a moment later.
    await waitFor(() => expect(fetched).toHaveBeenCalled());

    await act(async () => {
      answer(new Response(JSON.stringify({ userName: 'ada', email: 'ada@example.com' }), { status: 200 }));
      await restoring;
    });
    expect(screen.getByText('Music collection')).toBeInTheDocument();
  });

  it('brings a guest back to the protected page after signing in', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
      stubFetch({
        'POST /api/auth/signin': { body: { token: 'tok', user: { userName: 'ada', email: 'ada@example.com' } } },
      });
      renderGuarded('/music');
      await user.type(screen.getByLabelText('Username'), 'ada');
      await user.type(screen.getByLabelText('Password'), 'secret-pass');
      await user.click(screen.getByRole('button', { name: 'Sign In' }));
      await act(() => vi.advanceTimersByTimeAsync(1500));
      await waitFor(() => expect(screen.getByText('Music collection')).toBeInTheDocument());
      expect(location()).toBe('/music');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the ?next= destination', () => {
  it.each([
    ['/music?owner=true', '/music?owner=true'],
    ['//evil.example/phish', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example', '/'],
    ['/signin', '/'],
    ['/signup?next=/x', '/'],
    [null, '/'],
  ])('%j becomes %j', (raw, expected) => {
    expect(safeNextPath(raw)).toBe(expected);
  });

  it('builds the sign-in address from where the guest was going', () => {
    expect(signInPathFor({ pathname: '/playlists/4', search: '?play=1' })).toBe('/signin?next=%2Fplaylists%2F4%3Fplay%3D1');
    expect(signInPathFor({ pathname: '/' })).toBe('/signin');
  });
});
