import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../lib/session.store';
import { setLanguage } from '../lib/i18n/i18n.store';
import { stubFetch } from '../test/fetch-stub';
import { filesRoute } from '../test/files-route';
import { currentPath, renderApp } from '../test/render-app';

function signInAs(userName: string, email: string) {
  localStorage.setItem('token', 'tok');
  localStorage.setItem('userName', userName);
  localStorage.setItem('email', email);
  sessionStore.syncWithStoredToken();
}

beforeEach(() => {
  sessionStore.reset();
});

afterEach(() => {
  act(() => setLanguage('en'));
});

describe('top bar', () => {
  it('offers a visitor one link, Get Started', () => {
    stubFetch({});
    renderApp('/');
    const banner = screen.getByRole('banner');
    expect(within(banner).getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/signin');
    expect(within(banner).queryByRole('link', { name: 'Upload' })).not.toBeInTheDocument();
    expect(within(banner).queryByRole('button', { name: 'Open profile' })).not.toBeInTheDocument();
  });

  it.each(['/signin', '/signup'])('offers no Get Started on %s, the page it leads to', (path) => {
    stubFetch({});
    renderApp(path);
    expect(within(screen.getByRole('banner')).queryByRole('link', { name: 'Get Started' })).not.toBeInTheDocument();
  });

  it("labels the toast area in the reader's language", () => {
    stubFetch({});
    act(() => setLanguage('he'));
    renderApp('/');
    expect(screen.getByRole('region', { name: /התראות/ })).toBeInTheDocument();
  });

  it('turns translucent once the page is scrolled more than 10 px', () => {
    stubFetch({});
    renderApp('/');
    const banner = screen.getByRole('banner');
    expect(banner).toHaveAttribute('data-scrolled', 'false');
    act(() => {
      Object.defineProperty(window, 'scrollY', { value: 11, configurable: true });
      window.dispatchEvent(new Event('scroll'));
    });
    expect(banner).toHaveAttribute('data-scrolled', 'true');
    act(() => {
      Object.defineProperty(window, 'scrollY', { value: 10, configurable: true });
      window.dispatchEvent(new Event('scroll'));
    });
    expect(banner).toHaveAttribute('data-scrolled', 'false');
  });

  it('gives a signed-in user the links and a Library dropdown that closes on choice', async () => {
    stubFetch({});
    signInAs('ada', 'ada@example.com');
    const user = userEvent.setup();
    const { router } = renderApp('/');
    const nav = screen.getAllByRole('navigation', { name: 'Main navigation' })[0]!;
    for (const [name, href] of [
      ['Home', '/'],
      ['AI Playlist', '/ai-playlist'],
      ['Upload', '/upload'],
      ['Song2Clip', '/song2clip'],
    ]) {
      expect(within(nav).getByRole('link', { name })).toHaveAttribute('href', href);
    }

    await user.click(within(nav).getByRole('button', { name: 'Library' }));
    const library = await screen.findByRole('navigation', { name: 'Library' });
    expect(within(library).getByRole('link', { name: /All Music/ })).toHaveAttribute('href', '/music');
    expect(within(library).getByRole('link', { name: /My Music/ })).toHaveAttribute('href', '/music?owner=true');
    expect(within(library).getByRole('link', { name: /Favorites/ })).toHaveAttribute('href', '/music?owner=true&favorites=true');
    expect(within(library).getByRole('link', { name: /Playlists/ })).toHaveAttribute('href', '/playlists');
    expect(within(library).getByText("Manage the songs you've uploaded")).toBeInTheDocument();

    await user.click(within(library).getByRole('link', { name: /Playlists/ }));
    expect(currentPath(router)).toBe('/playlists');
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Library' })).not.toBeInTheDocument());
  });

  it('marks the current page in the phone menu', async () => {
    stubFetch({ 'GET /api/files': filesRoute([]) });
    signInAs('ada', 'ada@example.com');
    const user = userEvent.setup();
    renderApp('/music?owner=true');
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = (await screen.findAllByRole('navigation', { name: 'Main navigation' })).at(-1)!;
    expect(within(menu).getByRole('link', { name: 'My Music' })).toHaveAttribute('aria-current', 'page');
    expect(within(menu).getByRole('link', { name: 'All Music' })).not.toHaveAttribute('aria-current');
  });

  it('closes the Library dropdown on an outside click', async () => {
    stubFetch({});
    signInAs('ada', 'ada@example.com');
    const user = userEvent.setup();
    renderApp('/');
    const nav = screen.getAllByRole('navigation', { name: 'Main navigation' })[0]!;
    await user.click(within(nav).getByRole('button', { name: 'Library' }));
    expect(await screen.findByRole('navigation', { name: 'Library' })).toBeInTheDocument();
    await user.click(screen.getByRole('heading', { level: 1 }));
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Library' })).not.toBeInTheDocument());
  });
});

describe('profile dialog', () => {
  it('fetches the profile, shows initials, name and e-mail', async () => {
    const { requests } = stubFetch({
      'GET /api/auth/profile': { body: { userName: 'ada lovelace', email: 'ada@example.com' } },
    });
    signInAs('ada', 'old@example.com');
    const user = userEvent.setup();
    renderApp('/');
    await user.click(screen.getByRole('button', { name: 'Open profile' }));

    const dialog = await screen.findByRole('dialog', { name: 'User Profile' });
    expect(within(dialog).getByText('Manage your account settings and preferences')).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByText('ada@example.com')).toBeInTheDocument());
    expect(within(dialog).getByText('AL')).toBeInTheDocument();
    expect(within(dialog).getByText('ada lovelace')).toBeInTheDocument();
    expect(within(dialog).queryByText('Loading profile…')).not.toBeInTheDocument();
    expect(requests.some((request) => request.path === '/api/auth/profile')).toBe(true);
  });

  it.each([
    ['View Profile', '/profile'],
    // /my-music (the spec's link) opens the user's uploads.
    ['My Music', '/music?owner=true'],
    ['Upload Music', '/upload'],
  ])('%s goes to %s', async (name, path) => {
    stubFetch({ 'GET /api/auth/profile': { body: { userName: 'ada', email: 'ada@example.com' } } });
    signInAs('ada', 'ada@example.com');
    const user = userEvent.setup();
    const { router } = renderApp('/');
    await user.click(screen.getByRole('button', { name: 'Open profile' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name }));
    expect(currentPath(router)).toBe(path);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('Log Out clears the session and goes to /', async () => {
    stubFetch({ 'GET /api/auth/profile': { body: { userName: 'ada', email: 'ada@example.com' } } });
    signInAs('ada', 'ada@example.com');
    const user = userEvent.setup();
    const { router } = renderApp('/song2clip');
    await user.click(screen.getByRole('button', { name: 'Open profile' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Log Out' }));
    expect(currentPath(router)).toBe('/');
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('userName')).toBeNull();
    expect(localStorage.getItem('email')).toBeNull();
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Get Started' })).toBeInTheDocument();
  });

  it('Log Out from a protected page goes to /, not to the sign-in page', async () => {
    stubFetch({ 'GET /api/auth/profile': { body: { userName: 'ada', email: 'ada@example.com' } }, 'GET /api/files': filesRoute([]) });
    signInAs('ada', 'ada@example.com');
    const user = userEvent.setup();
    const { router } = renderApp('/music?owner=true');
    await user.click(screen.getByRole('button', { name: 'Open profile' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Log Out' }));
    await waitFor(() => expect(localStorage.getItem('token')).toBeNull());
    expect(currentPath(router)).toBe('/');
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Get Started' })).toBeInTheDocument();
  });

  it('switches the language to Hebrew, right-to-left', async () => {
    stubFetch({ 'GET /api/auth/profile': { body: { userName: 'ada', email: 'ada@example.com' } } });
    signInAs('ada', 'ada@example.com');
    const user = userEvent.setup();
    renderApp('/');
    await user.click(screen.getByRole('button', { name: 'Open profile' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'עברית' }));
    expect(document.documentElement.dir).toBe('rtl');
    expect(screen.getByRole('dialog', { name: 'פרופיל משתמש' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'התנתקות' })).toBeInTheDocument();
    expect(localStorage.getItem('language')).toBe('he');
  });
});

describe('not found', () => {
  it.each(['/about', '/contact', '/nope/deeper'])('%s falls to Not Found', async (path) => {
    stubFetch({});
    const user = userEvent.setup();
    const { router } = renderApp(path);
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(document.title).toBe('Page Not Found · Encore');
    await user.click(screen.getByRole('link', { name: 'Back to Home' }));
    expect(currentPath(router)).toBe('/');
  });
});

describe('footer', () => {
  it('has the columns, the legal links and this year', () => {
    stubFetch({});
    renderApp('/');
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'Features' })).toHaveAttribute('href', '#features');
    expect(within(footer).getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '#pricing');
    expect(within(footer).getByRole('link', { name: 'About' })).toHaveAttribute('href', '/about');
    expect(within(footer).getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/contact');
    for (const name of ['Terms', 'Privacy', 'Cookies', 'Help Center', 'Careers', 'Source code']) {
      expect(within(footer).getByRole('link', { name })).toBeInTheDocument();
    }
    expect(within(footer).getByText(`© ${new Date().getFullYear()} Encore. All rights reserved.`)).toBeInTheDocument();
  });
});
