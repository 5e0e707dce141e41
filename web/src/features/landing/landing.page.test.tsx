import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session.store';
import { stubFetch } from '../../test/fetch-stub';
import { currentPath, renderApp } from '../../test/render-app';

beforeEach(() => {
  sessionStore.reset();
  stubFetch({});
});

afterEach(() => {
  vi.useRealTimers();
});

function highlighted() {
  return screen.getAllByRole('button').find((button) => button.getAttribute('aria-current') === 'true');
}

describe('landing page', () => {
  it('shows the badge, headline, tagline and Get Started', () => {
    renderApp('/');
    expect(screen.getByText('Next-Gen Music Management')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Your Music, Elevated' })).toBeInTheDocument();
    expect(screen.getByText(/Manage, create and enjoy your music/)).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Get Started' })[0]).toHaveAttribute('href', '/signin');
    expect(document.title).toBe('Your Music, Elevated · Encore');
    expect(screen.getByText(/chill coding beats/)).toBeInTheDocument();
  });

  it('sends a signed-in user from Get Started into the library', () => {
    localStorage.setItem('token', 't');
    sessionStore.syncWithStoredToken();
    renderApp('/');
    expect(screen.getAllByRole('link', { name: 'Get Started' })[0]).toHaveAttribute('href', '/music');
  });

  it('moves the highlight every 3 s and fills the bar by 25 % per card', async () => {
    vi.useFakeTimers();
    renderApp('/');
    const bar = screen.getByRole('progressbar');
    expect(highlighted()).toHaveTextContent('Upload Songs');
    expect(bar).toHaveAttribute('aria-valuenow', '25');

    await act(() => vi.advanceTimersByTimeAsync(2999));
    expect(highlighted()).toHaveTextContent('Upload Songs');
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(highlighted()).toHaveTextContent('AI Playlist Creator');
    expect(bar).toHaveAttribute('aria-valuenow', '50');

    await act(() => vi.advanceTimersByTimeAsync(6000));
    expect(highlighted()).toHaveTextContent('Song2Clip');
    expect(bar).toHaveAttribute('aria-valuenow', '100');
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(highlighted()).toHaveTextContent('Upload Songs');
  });

  it('a card click highlights it and goes to its route', async () => {
    // /music is for signed-in users; a guest would be sent to /signin first.
    localStorage.setItem('token', 'tok');
    sessionStore.syncWithStoredToken();
    const user = userEvent.setup();
    const { router } = renderApp('/');
    await user.click(screen.getByRole('button', { name: /Transcribe Lyrics/ }));
    expect(currentPath(router)).toBe('/music');
  });
});
